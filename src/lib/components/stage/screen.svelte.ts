/**
 * What the play screen shows around the story, as one rune class shared by context: which overlay
 * is open (log, settings, help, the menu, the state / journal / documents drawers), whether the
 * text window is hidden to see the picture, the title card, fast-forward, and whether the page is
 * running in a browser yet (before that, everything renders for a reader without JavaScript).
 */
import { getContext, setContext } from 'svelte';
import { SvelteSet } from 'svelte/reactivity';

const OVERLAYS = ['log', 'settings', 'help', 'menu', 'state', 'journal', 'documents', 'saves'] as const;
export type OverlayName = (typeof OVERLAYS)[number];
/** Overlays that slide in from the side over the stage, leaving it visible. */
export const DRAWERS: readonly OverlayName[] = ['state', 'journal', 'documents'];

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
	/** Ctrl is held: the text races ahead. */
	forcing = $state(false);
	fullscreen = $state(false);
	/** Running in a browser (after mount): before, the page renders for a reader without JavaScript. */
	hydrated = $state(false);
	/** Where the keyboard was before an overlay opened: it goes back there on close. */
	private returnFocus: HTMLElement | null = null;

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
		else document.querySelector<HTMLElement>('[data-testid="text-window"]')?.focus();
	}

	toggle(name: OverlayName): void {
		if (this.overlay === name) this.close();
		else this.open(name);
	}

	/** Content of an overlay is rendered: always for a reader without JavaScript, else once opened. */
	shows(name: OverlayName): boolean {
		return !this.hydrated || this.visited.has(name);
	}
}

const SCREEN_CONTEXT = Symbol('kantera.screen');

export function setScreenContext(ui: ScreenUi): ScreenUi {
	return setContext(SCREEN_CONTEXT, ui);
}

export function getScreenContext(): ScreenUi {
	const ui = getContext<ScreenUi | undefined>(SCREEN_CONTEXT);
	if (!ui) throw new Error('The play screen components must be inside the play screen (no ScreenUi in context).');
	return ui;
}
