/** get_state / update_state: the one structured state document, changed only by merge patches. */
import * as v from 'valibot';
import { MAX_NAME_CHARS, state, type JsonObject } from '../../records';
import { defineTool } from '../define';
import type { ToolContext } from '../context';
import { recorded, text } from './shared';

/** A patch touching more keys than this is a rewrite, not an update. */
const MAX_PATCH_KEYS = 50;
const MAX_STATE_KEYS_READ = 50;

export const getStateTool = defineTool({
	name: 'get_state',
	description:
		'Read the structured game state: location, in-game time, HP, inventory, flags and whatever else has ' +
		'been recorded there. Give "keys" to read only some top-level keys.',
	schema: v.object({
		keys: v.optional(
			v.pipe(
				v.array(text(MAX_NAME_CHARS, 'A top-level key.')),
				v.minLength(1),
				v.maxLength(MAX_STATE_KEYS_READ),
				v.description('Only these top-level keys, e.g. ["hp", "inventory"]. Omit to read the whole state.')
			)
		)
	}),
	async handler(args, ctx: ToolContext) {
		const snapshot = await ctx.read((exec) => state.get(exec));
		if (args.keys === undefined) return { version: snapshot.version, state: snapshot.doc };
		const picked: JsonObject = {};
		const missing: string[] = [];
		for (const key of args.keys) {
			const value = snapshot.doc[key];
			if (value === undefined) missing.push(key);
			else picked[key] = value;
		}
		return missing.length > 0 ? { version: snapshot.version, state: picked, missing } : { version: snapshot.version, state: picked };
	}
});

/**
 * The patch must stay a JSON object. `v.record` would take an array and turn it into {"0": …}, so the
 * check is a custom schema; custom schemas have no JSON Schema, so the rendered part is declared with
 * metadata on an `unknown` in front (the converter renders a pipe up to its second schema).
 */
function mergePatch() {
	return v.pipe(
		v.unknown(),
		v.metadata({ type: 'object', minProperties: 1, maxProperties: MAX_PATCH_KEYS }),
		v.description(
			'The keys to change, e.g. {"location": "North Gate", "hp": 7, "inventory": ["rope", "lantern"], "flags": {"gate_open": true}, "curse": null}.'
		),
		v.custom<Record<string, unknown>>(
			isPlainObject,
			'the patch must be a JSON object of the keys to change, e.g. {"hp": 7}, not an array or a string'
		),
		v.minEntries(1, 'the patch is empty; give the keys to change'),
		v.maxEntries(MAX_PATCH_KEYS)
	);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const updateStateTool = defineTool({
	name: 'update_state',
	description:
		'Change the game state with a JSON Merge Patch (RFC 7396): keys you give replace the current values, ' +
		'nested objects merge key by key, null deletes a key, keys you leave out stay as they are. Arrays ' +
		'are replaced whole, so send the full new inventory list. Record every change of location, time, HP, ' +
		'items and flags as it happens. The player sees the state as a sheet: name keys plainly, keep "x" ' +
		'and "xMax" pairs for gauges, and put display names in the story\'s language under "_labels" (e.g. ' +
		'{"_labels": {"hpMax": "Max HP"}}); keys starting with _ are not shown.',
	schema: v.object({
		patch: mergePatch()
	}),
	async handler(args, ctx: ToolContext) {
		const next = await recorded(() => ctx.write((tx) => state.patch(tx, args.patch)));
		const changed: JsonObject = {};
		const removed: string[] = [];
		for (const key of Object.keys(args.patch)) {
			const value = next.doc[key];
			if (value === undefined) removed.push(key);
			else changed[key] = value;
		}
		return removed.length > 0 ? { version: next.version, changed, removed } : { version: next.version, changed };
	}
});
