/**
 * The play screen's keys and clicks, as a table for the `shortcuts` action (README, "Playing → Keys";
 * the help sheet lists them): Enter or Space reads on, Ctrl held races ahead, S Skip (read text goes
 * by), A auto, L log, H hide, F full screen, U undo, R reroll, E edit, ← → the replies to the last
 * line (swipes), ? the keys, Esc the menu or closes what is open. With the window hidden any key brings it back; with a layer open only Esc
 * (and the layer's own keys) count; the title card waits for Enter, Space or Esc. Keys typed into a
 * field are the field's.
 */
import { ANY_KEY, type ShortcutOptions } from '$lib/actions/shortcuts';
import type { PlayState } from '$lib/play';
import type { ScreenUi } from './screen.svelte';
import type { LastTurn } from './last-turn.svelte';

/** Controls that keep their own clicks, and Enter or Space on them. */
const INTERACTIVE = 'a, button, input, textarea, select, label, summary, form, [role="dialog"], .hud, .choices';
const OWN_ENTER = 'a, button, [role="listbox"]';

/** Enter, Space or a click: stops Skip, or the title card's Start, back to the story from a past line, or the next page or paragraph. */
export function readOn(play: PlayState, ui: ScreenUi): void {
	if (ui.forcing === 'skip') ui.stopForcing('skip');
	else if (ui.titleOpen) ui.startStory();
	else if (play.past) play.returnToStory();
	else play.story.click();
}

/** Esc: shows the hidden window, closes the layer open, starts from the title card, or opens the menu. */
function escape(ui: ScreenUi): void {
	if (ui.hidden) ui.hidden = false;
	else if (ui.overlay !== null) ui.close();
	else if (ui.titleOpen) ui.startStory();
	else ui.open('menu');
}

/** One step of the race while Ctrl is held: it pauses under a layer or a past line, and waits at the end of the text. */
function race(play: PlayState, ui: ScreenUi): boolean {
	if (ui.overlay !== null || play.past) return true;
	if (!(play.story.complete && !play.story.hasNext)) play.story.click();
	return true;
}

/** Skip on or off. On, text read before goes by as fast as Ctrl would take it, up to the first text not read yet (or the end). */
export function toggleSkip(play: PlayState, ui: ScreenUi): void {
	if (ui.forcing === 'skip') ui.stopForcing('skip');
	else if (play.story.canSkip) ui.startForcing('skip', () => ui.overlay === null && !play.past && play.story.skipStep());
}

export interface ScreenKeyOptions {
	toggleFullscreen: () => void;
	/** The screen's own element: Enter on it (full screen) reads on like anywhere else. */
	screen: () => Element | undefined;
	/** Undo, Reroll and Edit on the last exchange (none: those keys do nothing). */
	lastTurn?: LastTurn | undefined;
}

export function screenKeys(play: PlayState, ui: ScreenUi, { toggleFullscreen, screen, lastTurn }: ScreenKeyOptions): ShortcutOptions[] {
	const onStory = () => ui.overlay === null && !ui.titleOpen;
	const readingKey = (event: KeyboardEvent) => {
		const target = event.target;
		const onControl = target instanceof Element && target !== screen() && target.closest(OWN_ENTER) !== null;
		return ui.overlay === null && !onControl;
	};
	const letter = (key: string, onShortcut: () => void): ShortcutOptions => ({ shortcut: { key }, when: onStory, onShortcut });
	return [
		{ shortcut: { key: 'Escape' }, ignoreInputFields: false, onShortcut: () => escape(ui) },
		{
			shortcut: { key: 'Control', ctrl: true },
			preventDefault: false,
			when: (event) => !event.repeat && ui.overlay === null,
			onShortcut: () => ui.startForcing('held', () => race(play, ui)),
			onRelease: () => ui.stopForcing('held')
		},
		{ shortcut: { key: ANY_KEY }, when: () => ui.hidden, onShortcut: () => (ui.hidden = false) },
		{ shortcut: { key: 'Enter' }, when: readingKey, onShortcut: () => readOn(play, ui) },
		{ shortcut: { key: ' ' }, when: readingKey, onShortcut: () => readOn(play, ui) },
		letter('s', () => toggleSkip(play, ui)),
		letter('a', () => play.toggleAuto()),
		letter('l', () => ui.open('log')),
		letter('h', () => (ui.hidden = true)),
		letter('f', toggleFullscreen),
		letter('u', () => lastTurn?.undo()),
		letter('r', () => lastTurn?.reroll()),
		letter('e', () => lastTurn?.startEdit()),
		letter('ArrowLeft', () => lastTurn?.swipe(-1)),
		letter('ArrowRight', () => lastTurn?.swipe(1)),
		letter('?', () => ui.open('help'))
	];
}

/** A click on the picture or the window reads on, as in any visual novel; controls keep their own clicks. */
export function onScreenClick(play: PlayState, ui: ScreenUi, event: MouseEvent): void {
	if (!ui.hydrated || event.button !== 0) return;
	if (ui.hidden) ui.hidden = false;
	else if (ui.titleOpen) ui.startStory();
	else if (!(event.target instanceof Element && event.target.closest(INTERACTIVE)) && ui.overlay === null) readOn(play, ui);
}
