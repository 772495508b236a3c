/**
 * Showing a preset's problems in the editor: each issue in the reader's language, on its field (the
 * field's element id is derived from its name), and the leak check's findings as warnings.
 */
import type { MessageKey } from '../i18n';
import type { ContentIssueCode, ContentIssueDto } from '../types/presets';
import type { Leak } from './leaks';
import { fieldOfLeak } from './form';

type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

const KEYS: Record<Exclude<ContentIssueCode, 'other'>, MessageKey> = {
	empty: 'presetError.empty',
	tooLong: 'presetError.tooLong',
	singleLine: 'presetError.singleLine',
	tooFewRows: 'presetError.tooFewRows',
	tooManyRows: 'presetError.tooManyRows',
	npcNameTag: 'presetError.npcNameTag',
	secretKey: 'presetError.secretKey',
	duplicateNpc: 'presetError.duplicateNpc',
	duplicateSecret: 'presetError.duplicateSecret',
	presentUnknown: 'presetError.presentUnknown',
	presentTwice: 'presetError.presentTwice',
	onStageTooMany: 'presetError.onStageTooMany',
	headings: 'presetError.headings',
	leak: 'presetError.leak',
	stateObject: 'presetError.stateObject',
	tooLarge: 'presetError.tooLarge'
};

/** The element id of a form field: `npcs.0.name` → `f-npcs-0-name`. */
export function fieldId(path: string): string {
	return `f-${path.replace(/[^a-zA-Z0-9]+/g, '-')}`;
}

export function issueText(issue: ContentIssueDto, t: Translate): string {
	return issue.code === 'other' ? issue.message : t(KEYS[issue.code], issue.params);
}

/** Issue messages by field path ('' for the whole preset), in the reader's language. */
export function issuesByField(issues: readonly ContentIssueDto[], t: Translate): Map<string, string[]> {
	const out = new Map<string, string[]>();
	for (const issue of issues) out.set(issue.path, [...(out.get(issue.path) ?? []), issueText(issue, t)]);
	return out;
}

/** Leak warnings by field path, as the editor shows them while the author types. */
export function leaksByField(leaks: readonly Leak[], t: Translate): Map<string, string[]> {
	const out = new Map<string, string[]>();
	for (const leak of leaks) {
		const path = fieldOfLeak(leak.field);
		out.set(path, [...(out.get(path) ?? []), t('presetError.leak', { marker: leak.marker, secret: leak.secret })]);
	}
	return out;
}
