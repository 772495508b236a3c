/**
 * The preset editor's draft: the form's values as the author types them, autosaved a moment after the
 * last keystroke — to the server for a saved preset (shown again, with "Discard changes", until it is
 * saved), to this browser for a new one (restored on the next visit, with "Start over"). Without
 * JavaScript none of this runs: the form posts and the server keeps every value.
 *
 * Made while a component initialises: its effects (restore, autosave) live as long as that component.
 */
import * as v from 'valibot';
import { PresetFormSchema, type PresetForm } from '../../../presets/form';
import type { ContentIssueDto } from '../../../types/presets';

/** Autosave waits this long after the last keystroke. */
const AUTOSAVE_MS = 1500;
/** Where a new preset's draft is kept until its first save. */
const LOCAL_DRAFT_KEY = 'kantera.presetDraft.new';
const LocalDraft = v.object({ form: PresetFormSchema, savedAt: v.string() });

export interface DraftProps {
	/** The values the page rendered (the saved preset, its stored draft, or a failed save's values). */
	initial: PresetForm;
	/** The preset being edited; undefined on "new preset". */
	presetId: string | undefined;
	/** The last save's problems: while there are any, a stored local draft is not restored over them. */
	issues: readonly ContentIssueDto[];
}

export interface AutosaveStatus {
	state: 'idle' | 'saving' | 'saved' | 'failed';
	at?: string;
}

export class PresetDraft {
	/** The form's values; the initial values only seed them (a failed save re-renders with the same ones). */
	form: PresetForm;
	/** JavaScript runs: the form is enhanced, autosaved and checked live. */
	scripted = $state(false);
	autosave = $state<AutosaveStatus>({ state: 'idle' });
	/** When the local draft shown was saved, if one was restored. */
	restoredAt = $state<string>();
	private lastSaved: string;

	constructor(private readonly props: () => DraftProps) {
		const { initial } = props();
		this.form = $state(structuredClone(initial));
		this.lastSaved = JSON.stringify(initial);

		$effect(() => {
			this.scripted = true;
			const { presetId, issues } = this.props();
			if (presetId !== undefined || issues.length > 0) return;
			// A new preset's draft from an earlier visit in this browser: restore it, and say so.
			const stored = readLocalDraft();
			if (stored && JSON.stringify(stored.form) !== this.lastSaved) {
				this.form = stored.form;
				this.restoredAt = stored.savedAt;
			}
		});

		$effect(() => {
			const snapshot = JSON.stringify(this.form);
			if (!this.scripted || snapshot === this.lastSaved) return;
			const timer = setTimeout(() => void this.save(snapshot), AUTOSAVE_MS);
			return () => clearTimeout(timer);
		});
	}

	/** A row added or removed in place (with JavaScript; without it the button posts and the server does it). */
	change(edit: (form: PresetForm) => PresetForm): void {
		this.form = edit(this.form);
	}

	/** "Start over": the restored local draft is dropped for the page's own values. */
	startOver(): void {
		localStorage.removeItem(LOCAL_DRAFT_KEY);
		const { initial } = this.props();
		this.form = structuredClone(initial);
		this.lastSaved = JSON.stringify(initial);
		this.restoredAt = undefined;
	}

	/** The form was saved (the post redirected): a new preset's local draft has served its purpose. */
	saved(): void {
		if (this.props().presetId === undefined) localStorage.removeItem(LOCAL_DRAFT_KEY);
		this.lastSaved = JSON.stringify(this.form);
	}

	private async save(snapshot: string): Promise<void> {
		this.autosave = { state: 'saving' };
		// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a timestamp taken once, not state
		const at = new Date().toISOString();
		try {
			const { presetId } = this.props();
			if (presetId === undefined) {
				const form: unknown = JSON.parse(snapshot);
				localStorage.setItem(LOCAL_DRAFT_KEY, JSON.stringify({ form, savedAt: at }));
			} else {
				const res = await fetch(`/api/v1/presets/${encodeURIComponent(presetId)}/draft`, {
					method: 'PUT',
					headers: { 'content-type': 'application/json' },
					body: snapshot
				});
				if (!res.ok) throw new Error(String(res.status));
			}
			this.lastSaved = snapshot;
			this.autosave = { state: 'saved', at };
		} catch {
			this.autosave = { state: 'failed' };
		}
	}
}

function readLocalDraft(): v.InferOutput<typeof LocalDraft> | undefined {
	try {
		const raw = localStorage.getItem(LOCAL_DRAFT_KEY);
		if (raw === null) return undefined;
		const parsed = v.safeParse(LocalDraft, JSON.parse(raw));
		return parsed.success ? parsed.output : undefined;
	} catch {
		return undefined;
	}
}
