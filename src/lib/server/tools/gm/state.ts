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
	description: 'Read the game state, or some top-level keys.',
	schema: v.object({
		keys: v.optional(v.pipe(v.array(text(MAX_NAME_CHARS)), v.minLength(1), v.maxLength(MAX_STATE_KEYS_READ)))
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
		v.metadata({ type: 'object' }),
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
		'Change the game state by JSON Merge Patch (null deletes; arrays are replaced whole). The player sees a ' +
		'sheet: gauges as "x"/"xMax", display names in the story\'s language under "_labels", keys starting with _ hidden.',
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
