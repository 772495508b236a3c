/**
 * The editor's form action, shared by "new preset" and "edit preset". A post carries every field;
 * `intent` says what to do with them: save (check, then create or add a version), or — the buttons
 * of the form without JavaScript — add or remove an NPC or secret row. Whatever happens, nothing
 * typed is lost: a refused save and a row change both answer with the whole form as it was posted
 * (and, for a saved preset, keep it as the draft).
 */
import { fail, redirect } from '@sveltejs/kit';
import { addNpc, addSecret, DRAFT_MAX_ROWS, formFromFormData, removeNpc, removeSecret, type PresetForm } from '../../presets/form';
import type { ContentIssueDto } from '../../types/presets';
import type { Viewer } from './access';
import { isPresetError } from './errors';
import { presetPageError } from './http';
import { saveForm, storeDraft, type PresetDeps } from './service';

interface EditorFailure {
	form: PresetForm;
	issues: ContentIssueDto[];
}

type RowChange = (form: PresetForm) => PresetForm;

function rowChange(intent: string): RowChange | undefined {
	if (intent === 'add-npc') return (f) => (f.npcs.length < DRAFT_MAX_ROWS ? addNpc(f) : f);
	if (intent === 'add-secret') return (f) => (f.secrets.length < DRAFT_MAX_ROWS ? addSecret(f) : f);
	const remove = /^remove-(npc|secret):(\d{1,3})$/.exec(intent);
	if (!remove) return undefined;
	const index = Number(remove[2]);
	return remove[1] === 'npc' ? (f) => removeNpc(f, index) : (f) => removeSecret(f, index);
}

/**
 * Runs the posted editor form for `presetId` (undefined: a new preset). Redirects to the preset's page
 * after a save; otherwise answers with the form (and its problems) to render again.
 */
export async function runEditor(app: PresetDeps, viewer: Viewer, presetId: string | undefined, data: FormData) {
	try {
		return await edit(app, viewer, presetId, data);
	} catch (err) {
		// Not yours, not there, read-only: the page answers with that status, not a server error.
		if (isPresetError(err)) presetPageError(err);
		throw err;
	}
}

async function edit(app: PresetDeps, viewer: Viewer, presetId: string | undefined, data: FormData) {
	const form = formFromFormData(data);
	const intentField = data.get('intent');
	const intent = typeof intentField === 'string' ? intentField : 'save';
	const change = rowChange(intent);
	if (change) {
		const changed = change(form);
		if (presetId !== undefined) await storeDraft(app, viewer, presetId, changed);
		return { form: changed, issues: [] satisfies ContentIssueDto[] };
	}
	let id: string;
	try {
		id = (await saveForm(app, viewer, presetId, form, data.get('versionNote') ?? '')).id;
	} catch (err) {
		if (!isPresetError(err, 'invalid')) throw err;
		// Kept as the draft too, so what was typed survives leaving the page (a new preset has no row to keep it in).
		if (presetId !== undefined) await storeDraft(app, viewer, presetId, form);
		return fail(400, { form, issues: [...(err.details.issues ?? [])] } satisfies EditorFailure);
	}
	redirect(303, `/presets/${id}?saved=1`);
}
