/**
 * What the play screen shows around the story, as one rune class shared by context: which overlay
 * is open (log, settings, help, the menu, the state / journal / documents drawers), whether the
 * text window is hidden to see the picture, the title card, fast-forward (Ctrl held, or Skip),
 * whether the GM waits for the player (and offers choices), and whether the page is running in a
 * browser yet (before that, everything renders for a reader without JavaScript).
 */
import { getContext, setContext } from 'svelte';
import { SvelteSet } from 'svelte/reactivity';
import { playContext, type ChoiceMenu, type PlayState } from '$lib/play';

const OVERLAYS = ['log', 'settings', 'help', 'menu', 'state', 'journal', 'documents', 'saves'] as const;
export type OverlayName = (typeof OVERLAYS)[number];
/** Overlays that slide in from the side over the stage, leaving it visible. */
export const DRAWERS: readonly OverlayName[] = ['state', 'journal', 'documents'];

/** Fast-forward (Ctrl held, or Skip): a page or paragraph is completed and left this often. */
const FORCE_SKIP_MS = 60;

/** How the text races: while Ctrl is held (everything), or with Skip on (only text read before). */
export type ForceMode = 'held' | 'skip';

export function isOverlayName(value: unknown): value is OverlayName {
	return OVERLAYS.some((o) => o === value);
}

export class ScreenUi {
	overlay = $state<OverlayName | null>(null);
	readonly #visited = new SvelteSet<OverlayName>();
	/** Overlays opened at least once: their content stays mounted (a half-written edit survives). */
	get visited(): ReadonlySet<OverlayName> {
		return this.#visited;
	}
	/** The text window and menus are hidden to see the picture; any input brings them back. */
	hidden = $state(false);
	/** The world's title card is up. */
	titleOpen = $state(false);
	/** The text races ahead: Ctrl is held, or Skip is on; null when it does not. */
	forcing = $state<ForceMode | null>(null);
	fullscreen = $state(false);
	/** Running in a browser (after mount): before, the page renders for a reader without JavaScript. */
	hydrated = $state(false);
	/** Where the keyboard was before an overlay opened: it goes back there on close. */
	private returnFocus: HTMLElement | null = null;
	private forceTimer: ReturnType<typeof setInterval> | undefined;

	/** The GM waits for the player, who has read to the end (or there is nothing to read); always before the page runs. */
	readonly waitingForPlayer = $derived.by(() => {
		const { play } = this;
		const story = play.story;
		if (!this.hydrated) return true;
		if (play.turn !== null || play.past !== null) return false;
		return story.lines.length === 0 || (story.complete && !story.hasNext) || story.exchange?.outcome !== 'committed';
	});
	/**
	 * The choices the GM offered with the reply on screen, once it has been read (past the title
	 * card); without JavaScript, with the whole reply, which is all in the window.
	 */
	readonly choices = $derived.by((): ChoiceMenu | null => {
		const { choices, story, llmConfigured } = this.play;
		const shown = this.waitingForPlayer && llmConfigured && !this.titleOpen;
		return shown && choices !== null && choices.messageId === story.exchange?.messageId ? choices : null;
	});

	constructor(readonly play: PlayState) {}

	open(name: OverlayName): void {
		if (this.overlay === null && typeof document !== 'undefined' && document.activeElement instanceof HTMLElement)
			this.returnFocus = document.activeElement;
		this.overlay = name;
		this.hidden = false;
		this.#visited.add(name);
	}

	close(): void {
		if (this.overlay === null) return;
		this.overlay = null;
		const back = this.returnFocus;
		this.returnFocus = null;
		if (back?.isConnected) back.focus();
		else focusTextWindow();
	}

	/** The title card's Start: the story begins and the keyboard is on the text window. */
	startStory(): void {
		this.titleOpen = false;
		focusTextWindow();
	}

	/**
	 * The text races: `step` runs every FORCE_SKIP_MS until it returns false or `stopForcing`. Ctrl
	 * held takes over from Skip; Skip does not interrupt Ctrl.
	 */
	startForcing(mode: ForceMode, step: () => boolean): void {
		if (this.forcing === mode || this.forcing === 'held') return;
		this.stopForcing();
		this.forcing = mode;
		this.forceTimer = setInterval(() => {
			if (!step()) this.stopForcing();
		}, FORCE_SKIP_MS);
	}

	stopForcing(mode?: ForceMode): void {
		if (mode !== undefined && this.forcing !== mode) return;
		if (this.forceTimer !== undefined) clearInterval(this.forceTimer);
		this.forceTimer = undefined;
		this.forcing = null;
	}

	toggle(name: OverlayName): void {
		if (this.overlay === name) this.close();
		else this.open(name);
	}

	/** A link to a layer's `#name` (its target without JavaScript) toggles the layer instead of following it. */
	toggleFromLink(event: MouseEvent, name: OverlayName): void {
		event.preventDefault();
		event.stopPropagation();
		this.toggle(name);
	}

	/** Content of an overlay is rendered: always for a reader without JavaScript, else once opened. */
	shows(name: OverlayName): boolean {
		return !this.hydrated || this.visited.has(name);
	}
}

function focusTextWindow(): void {
	document.querySelector<HTMLElement>('[data-testid="text-window"]')?.focus();
}

const SCREEN_CONTEXT = Symbol('kantera.screen');

export function setScreenContext(ui: ScreenUi): ScreenUi {
	return setContext(SCREEN_CONTEXT, ui);
}

/** The contexts a play-screen component reads (`ScreenUi` and its `PlayState`), for mounting one on its own (component tests). */
export function screenContext(ui: ScreenUi): Map<symbol, unknown> {
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a mount option read once, not state
	return new Map([...playContext(ui.play), [SCREEN_CONTEXT, ui]]);
}

export function getScreenContext(): ScreenUi {
	const ui = getContext<ScreenUi | undefined>(SCREEN_CONTEXT);
	if (!ui) throw new Error('The play screen components must be inside the play screen (no ScreenUi in context).');
	return ui;
}
