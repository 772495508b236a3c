/**
 * The preset editor's state, one rune class its fieldsets share by context: the draft (the form's values
 * and their autosave, `draft.svelte.ts`) and what each field shows beside its input — the last save's
 * errors, the leak check's live warnings, its counter against its limit, and who reads it in play.
 */
import { getContext, setContext } from 'svelte';
import { findLeaks } from '../../../presets/leaks';
import { countHeadings, formToInput, leakInputOf, presetBytes, type PresetLimits } from '../../../presets/form';
import { issuesByField, leaksByField } from '../../../presets/issues';
import { localeOf, translator } from '../../../i18n';
import type { Language } from '../../../types/settings';
import { PresetDraft, type DraftProps } from './draft.svelte';

export interface EditorProps extends DraftProps {
	limits: PresetLimits;
	language: Language;
}

// The derivations are `$derived.by` closures: they read `props` and `draft`, which the constructor sets.
export class PresetEditorState {
	/** Reads the editor's props, so what is derived from them follows them. */
	private readonly props: () => EditorProps;
	readonly draft: PresetDraft;
	readonly t = $derived.by(() => translator(this.props().language));
	/** The last save's problems by field; once JavaScript runs, leaks are checked live instead. */
	readonly errors = $derived.by(() => {
		const { issues } = this.props();
		return issuesByField(this.draft.scripted ? issues.filter((i) => i.code !== 'leak') : issues, this.t);
	});
	readonly leaks = $derived.by(() => (this.draft.scripted ? findLeaks(leakInputOf(this.draft.form)) : []));
	private readonly warnings = $derived(leaksByField(this.leaks, this.t));
	readonly headings = $derived.by(() => countHeadings(this.draft.form.documents.setting.body));
	readonly bytes = $derived.by(() => presetBytes(formToInput(this.draft.form)));
	readonly onStage = $derived.by(() => this.draft.form.npcs.filter((n) => n.present).length);
	/** The tags that say who reads a field in play. */
	readonly audience = $derived({
		player: { text: this.t('editor.audience.player'), kind: 'player' as const },
		documents: { text: this.t('editor.audience.documents'), kind: 'player' as const },
		gm: { text: this.t('editor.audience.gm'), kind: 'gm' as const }
	});
	readonly previewLabels = $derived({ show: this.t('editor.preview.show'), hide: this.t('editor.preview.hide') });

	constructor(props: () => EditorProps) {
		this.props = props;
		this.draft = new PresetDraft(props);
	}

	get limits(): PresetLimits {
		return this.props().limits;
	}

	readonly err = (path: string): string[] => this.errors.get(path) ?? [];
	readonly warn = (path: string): string[] => this.warnings.get(path) ?? [];
	/** Numbers and times are written for the reader's language: `fmt`, `counter` and `timeOf` use this one locale. */
	private readonly locale = $derived.by(() => localeOf(this.props().language));
	readonly fmt = (n: number): string => n.toLocaleString(this.locale);
	readonly counter = (count: number, max: number): string => this.t('editor.count', { count: this.fmt(count), max: this.fmt(max) });
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a moment formatted, not state
	readonly timeOf = (iso: string): string => new Date(iso).toLocaleTimeString(this.locale, { hour: '2-digit', minute: '2-digit' });
}

const EDITOR_CONTEXT = Symbol('kantera.presetEditor');

export function setEditorContext(editor: PresetEditorState): PresetEditorState {
	return setContext(EDITOR_CONTEXT, editor);
}

export function getEditorContext(): PresetEditorState {
	const editor = getContext<PresetEditorState | undefined>(EDITOR_CONTEXT);
	if (!editor) throw new Error('The preset editor’s fieldsets must be inside PresetEditor (no PresetEditorState in context).');
	return editor;
}
