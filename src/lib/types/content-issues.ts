/**
 * A problem with a preset's content, as the API reports it. Its own module so that `./api` (which every
 * page loads to read errors) does not bring the preset form and its parsers into the play page's JavaScript.
 */
import * as v from 'valibot';

export const CONTENT_ISSUE_CODES = [
	'empty',
	'tooLong',
	'singleLine',
	'controlCharacter',
	'tooFewRows',
	'tooManyRows',
	'npcNameTag',
	'secretKey',
	'duplicateNpc',
	'duplicateSecret',
	'presentUnknown',
	'presentTwice',
	'onStageTooMany',
	'headings',
	'leak',
	'stateObject',
	'tooLarge',
	'tooDeep',
	'termSeparator',
	'other'
] as const;
export type ContentIssueCode = (typeof CONTENT_ISSUE_CODES)[number];

/** One problem with a preset's content, on the field (dot path, '' for the whole preset) it concerns. */
export const ContentIssueSchema = v.object({
	path: v.string(),
	/** Stable code a page translates (`presetError.<code>`); `message` is the English text. */
	code: v.picklist(CONTENT_ISSUE_CODES),
	params: v.record(v.string(), v.union([v.string(), v.number()])),
	message: v.string()
});
export type ContentIssueDto = v.InferOutput<typeof ContentIssueSchema>;
