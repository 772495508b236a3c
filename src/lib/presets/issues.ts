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
	controlCharacter: 'presetError.controlCharacter',
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
	tooLarge: 'presetError.tooLarge',
	tooDeep: 'presetError.tooDeep',
	termSeparator: 'presetError.termSeparator'
};

/** The element id of a form field: `npcs.0.name` → `f-npcs-0-name`. */
export function fieldId(path: string): string {
	return `f-${path.replace(/[^a-zA-Z0-9]+/g, '-')}`;
}

function issueText(issue: ContentIssueDto, t: Translate): string {
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

const FIELD_KEYS: Record<string, MessageKey> = {
	language: 'editor.language',
	title: 'editor.title',
	tagline: 'editor.tagline',
	gmNotesTitle: 'editor.gmNotesTitle',
	gmBehaviour: 'editor.gmBehaviour',
	'plot.title': 'editor.plotTitle',
	'plot.body': 'editor.plotBody',
	npcs: 'editor.section.npcs',
	secrets: 'editor.section.secrets',
	'opening.scene.name': 'editor.sceneName',
	'opening.scene.description': 'editor.sceneDescription',
	'opening.situation': 'editor.situation',
	'opening.state': 'editor.state',
	'opening.present': 'editor.npcPresent',
	'opening.narration': 'editor.narration',
	'opening.alternatives': 'editor.alternatives',
	'opening.scene': 'editor.section.opening',
	notes: 'editor.notes',
	tags: 'editor.tags',
	'attribution.creator': 'editor.creator',
	'attribution.version': 'editor.version',
	'attribution.source': 'editor.source',
	'npcs.0': 'editor.section.npcs',
	preset: 'editor.report.wholePreset'
};
const DOC_KEYS: Record<string, MessageKey> = { premise: 'editor.doc.premise', setting: 'editor.doc.setting', pc: 'editor.doc.pc' };
const DOC_PARTS: Record<string, MessageKey> = { title: 'editor.docTitle', body: 'editor.docBody' };
const NPC_PARTS: Record<string, MessageKey> = {
	name: 'editor.npcName',
	role: 'editor.npcRole',
	appearance: 'editor.npcAppearance',
	personality: 'editor.npcPersonality'
};
const SECRET_PARTS: Record<string, MessageKey> = {
	key: 'editor.secretKey',
	title: 'editor.secretTitle',
	body: 'editor.secretBody',
	markers: 'editor.secretMarkers'
};

/** The name of a field as the editor labels it (`Character 1 › Name`), for the list of problems; '' for the whole preset. */
export function fieldLabel(path: string, t: Translate): string {
	const direct = FIELD_KEYS[path];
	if (direct) return t(direct);
	const doc = /^documents\.(\w+)\.(\w+)$/.exec(path);
	if (doc) {
		const [, name = '', part = ''] = doc;
		const docKey = DOC_KEYS[name];
		const partKey = DOC_PARTS[part];
		if (docKey && partKey) return `${t(docKey)} › ${t(partKey)}`;
	}
	const row = /^(npcs|secrets)\.(\d+)\.(\w+)$/.exec(path);
	if (row) {
		const [, list = '', index = '0', part = ''] = row;
		const n = Number(index) + 1;
		const partKey = (list === 'npcs' ? NPC_PARTS : SECRET_PARTS)[part];
		if (partKey) return `${t(list === 'npcs' ? 'editor.npc' : 'editor.secret', { n })} › ${t(partKey)}`;
	}
	return path;
}
