/**
 * A preset's content: checked against the very schema the official worlds follow
 * (`WorldPresetSchema`), plus a size limit for the whole preset, with every problem reported on the
 * field it concerns (dot paths, as the editor's field names) and a stable code a page translates.
 * The secret-leak check reports each leak on the field holding the marker.
 */
import * as v from 'valibot';
import { findLeaks, WorldPresetSchema, type WorldPreset } from '../worlds';
import { fieldOfLeak, presetBytes } from '../../presets/form';
import { MAX_PRESET_DEPTH, MAX_STATE_DEPTH, tooDeepAt } from '../../presets/depth';
import type { ContentIssueCode, ContentIssueDto } from '../../types/presets';
import { PresetError } from './errors';

/**
 * The largest preset, as stored JSON in UTF-8. Keeps a whole preset inside one form post (adapter-node
 * accepts 512 KB bodies by default) with room to spare: about 130,000 Japanese or 400,000 English characters.
 */
export const MAX_PRESET_BYTES = 400_000;

const STATE_PATH = 'opening.state';
const OpeningState = v.object({ opening: v.object({ state: v.unknown() }) });

/**
 * A preset nested too deeply: its opening state deeper than MAX_STATE_DEPTH, or anything deeper than
 * MAX_PRESET_DEPTH (which no other check may walk: it would overflow the stack).
 */
function depthIssue(input: object): { issue: ContentIssueDto; walkable: boolean } | undefined {
	const at = tooDeepAt(input, MAX_PRESET_DEPTH);
	if (at !== undefined && !at.startsWith(`${STATE_PATH}.`)) {
		const message = `The preset nests objects and lists more than ${MAX_PRESET_DEPTH} levels deep, at ${at}.`;
		return { issue: { path: '', code: 'tooDeep', params: { max: MAX_PRESET_DEPTH }, message }, walkable: false };
	}
	const opening = v.safeParse(OpeningState, input);
	if (at === undefined && (!opening.success || tooDeepAt(opening.output.opening.state, MAX_STATE_DEPTH) === undefined)) return undefined;
	const message = `The opening state nests objects and lists more than ${MAX_STATE_DEPTH} levels deep.`;
	return { issue: { path: STATE_PATH, code: 'tooDeep', params: { max: MAX_STATE_DEPTH }, message }, walkable: at === undefined };
}

/** The leak check's summary issue; each leak is reported on its own field instead. */
const LEAK_SUMMARY = 'A secret marker appears in a player-visible field; run findLeaks for where.';

const EXACT: Readonly<Record<string, ContentIssueCode>> = {
	'Two NPCs share a name.': 'duplicateNpc',
	'Two secrets share a key.': 'duplicateSecret',
	'The opening names an NPC the world does not have.': 'presentUnknown',
	'The opening names an NPC twice.': 'presentTwice',
	'An NPC name cannot hold @ : ( ) (the speaker tag uses them).': 'npcNameTag',
	'A secret key is lower-case words joined by hyphens.': 'secretKey',
	'The opening state must be a JSON object.': 'stateObject',
	'A term cannot hold a comma or a colon (they separate terms and the note).': 'termSeparator'
};

/** The shape the leak check reads, loosely: any object with these strings can be checked. */
const LeakCheckable = v.object({
	title: v.string(),
	tagline: v.string(),
	documents: v.object({
		premise: v.object({ title: v.string(), body: v.string() }),
		setting: v.object({ title: v.string(), body: v.string() }),
		pc: v.object({ title: v.string(), body: v.string() })
	}),
	npcs: v.array(v.object({ name: v.string(), role: v.string(), appearance: v.string() })),
	secrets: v.array(v.object({ key: v.string(), markers: v.optional(v.array(v.string())) })),
	opening: v.object({
		scene: v.object({ name: v.string(), description: v.string() }),
		state: v.unknown(),
		narration: v.optional(v.string()),
		alternatives: v.optional(v.array(v.object({ label: v.string(), narration: v.string() })))
	}),
	tags: v.optional(v.array(v.string())),
	attribution: v.optional(v.object({ creator: v.string(), version: v.string(), source: v.array(v.string()) }))
});

/** A marker list's row, a present NPC's index, anything in the anachronism list: the editor shows those on the list's own field. */
function fieldPath(path: string): string {
	return path
		.replace(/^(secrets\.\d+\.markers)\.\d+$/, '$1')
		.replace(/^opening\.present\.\d+$/, 'opening.present')
		.replace(/^anachronisms\..*$/, 'anachronisms');
}

function classify(issue: v.BaseIssue<unknown>): { code: ContentIssueCode; params: Record<string, string | number> } {
	// An empty key fails its pattern first; "fill this in" says more than the pattern does.
	if (issue.type === 'non_empty' || issue.message.endsWith(' is empty.') || (issue.type === 'regex' && issue.input === ''))
		return { code: 'empty', params: {} };
	const exact = EXACT[issue.message];
	if (exact) return { code: exact, params: {} };
	if (issue.message.startsWith('The world setting needs at least'))
		return { code: 'headings', params: { min: Number(/\d+/.exec(issue.message)?.[0] ?? 0) } };
	if (issue.type === 'regex' && issue.message.endsWith('must be a single line.')) return { code: 'singleLine', params: {} };
	if (issue.type === 'check' && issue.message.includes(' contains a control character ')) return { code: 'controlCharacter', params: {} };
	const requirement = typeof issue.requirement === 'number' ? issue.requirement : undefined;
	const isArray = Array.isArray(issue.input);
	if (issue.type === 'max_length' && requirement !== undefined && v.getDotPath(issue) === 'opening.present')
		return { code: 'onStageTooMany', params: { max: requirement } };
	if (issue.type === 'max_length' && requirement !== undefined)
		return { code: isArray ? 'tooManyRows' : 'tooLong', params: { max: requirement } };
	if (issue.type === 'min_length' && requirement !== undefined && isArray) return { code: 'tooFewRows', params: { min: requirement } };
	return { code: 'other', params: {} };
}

function toIssue(issue: v.BaseIssue<unknown>): ContentIssueDto {
	const { code, params } = classify(issue);
	const path = code === 'headings' ? 'documents.setting.body' : fieldPath(v.getDotPath(issue) ?? '');
	return { path, code, params, message: issue.message };
}

export type ContentCheck = { ok: true; preset: WorldPreset } | { ok: false; issues: ContentIssueDto[] };

/**
 * Checks `input` (the preset's fields without `id`) as the preset `id`. Every problem is returned,
 * not only the first: the schema's, each leak on its field, the whole preset's size and depth (a preset
 * too deep to walk safely gets that one problem only).
 */
export function checkContent(input: unknown, id: string): ContentCheck {
	if (typeof input !== 'object' || input === null || Array.isArray(input)) {
		return { ok: false, issues: [{ path: '', code: 'other', params: {}, message: 'A preset is a JSON object.' }] };
	}
	const issues: ContentIssueDto[] = [];
	const deep = depthIssue(input);
	if (deep) issues.push(deep.issue);
	// Too deep to measure or check without overflowing the stack: that is all that can be said.
	if (deep && !deep.walkable) return { ok: false, issues };
	const bytes = presetBytes(input);
	if (bytes > MAX_PRESET_BYTES) {
		issues.push({
			path: '',
			code: 'tooLarge',
			params: { max: MAX_PRESET_BYTES, size: bytes },
			message: `The preset is ${bytes} bytes; a preset holds at most ${MAX_PRESET_BYTES}.`
		});
	}
	const result = v.safeParse(WorldPresetSchema, { ...input, id });
	if (!result.success) issues.push(...result.issues.filter((i) => i.message !== LEAK_SUMMARY).map(toIssue));
	const checkable = v.safeParse(LeakCheckable, input);
	if (checkable.success) {
		for (const leak of findLeaks(checkable.output)) {
			issues.push({
				path: fieldOfLeak(leak.field),
				code: 'leak',
				params: { marker: leak.marker, secret: leak.secret },
				message: `This field gives away the secret "${leak.secret}": it contains its marker "${leak.marker}".`
			});
		}
	}
	if (issues.length > 0 || !result.success) return { ok: false, issues: dedupe(issues) };
	return { ok: true, preset: result.output };
}

function dedupe(issues: ContentIssueDto[]): ContentIssueDto[] {
	const seen = new Set<string>();
	return issues.filter((i) => {
		const key = `${i.path}\u0000${i.code}\u0000${i.message}`;
		if (seen.has(key)) return false;
		seen.add(key);
		return true;
	});
}

/** The content, or PresetError('invalid') naming every problem. */
export function requireContent(input: unknown, id: string): WorldPreset {
	const checked = checkContent(input, id);
	if (checked.ok) return checked.preset;
	throw invalidContent(checked.issues);
}

export function invalidContent(issues: readonly ContentIssueDto[]): PresetError {
	const shown = issues.slice(0, 5).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
	const more = issues.length > shown.length ? ` (and ${issues.length - shown.length} more)` : '';
	return new PresetError('invalid', `${shown.join('; ')}${more}`, { issues });
}

/** The stored form of a version: the preset without its id, so a copy or an export is not tied to it. */
export function contentOf(preset: WorldPreset): Omit<WorldPreset, 'id'> {
	const { id: _id, ...content } = preset;
	return content;
}
