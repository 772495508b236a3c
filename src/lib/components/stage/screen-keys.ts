/**
 * The play screen's keys and clicks, as a table for the `shortcuts` action (README, "Playing → Keys";
 * the help sheet lists them): Enter or Space reads on, Ctrl held races ahead, A auto, L log, H hide,
 * F full screen, ? the keys, Esc the menu or closes what is open. With the window hidden any key
 * brings it back; with a layer open only Esc (and the layer's own keys) count; the title card waits
 * for Enter, Space or Esc. Keys typed into a field are the field's.
 */
import { ANY_KEY, type ShortcutOptions } from '$lib/actions/shortcuts';
import type { PlayState } from '$lib/play';
import type { ScreenUi } from './screen.svelte';

/** Controls that keep their own clicks, and Enter or Space on them. */
const INTERACTIVE = 'a, button, input, textarea, select, label, summary, form, [role="dialog"], .hud, .choices';
const OWN_ENTER = 'a, button, [role="listbox"]';

/** Enter, Space or a click: the title card's Start, back to the story from a past line, or the next paragraph. */
export function readOn(play: PlayState, ui: ScreenUi): void {
	if (ui.titleOpen) ui.startStory();
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

/** One step of the race while Ctrl is held: it pauses under a layer or a past line, and at the end of the text. */
function race(play: PlayState, ui: ScreenUi): void {
	if (ui.overlay !== null || play.past) return;
	if (play.story.complete && !play.story.hasNext) return;
	play.story.click();
}

export interface ScreenKeyOptions {
	toggleFullscreen: () => void;
	/** The screen's own element: Enter on it (full screen) reads on like anywhere else. */
	screen: () => Element | undefined;
}

export function screenKeys(play: PlayState, ui: ScreenUi, { toggleFullscreen, screen }: ScreenKeyOptions): ShortcutOptions[] {
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
			onShortcut: () => ui.startForcing(() => race(play, ui)),
			onRelease: () => ui.stopForcing()
		},
		{ shortcut: { key: ANY_KEY }, when: () => ui.hidden, onShortcut: () => (ui.hidden = false) },
		{ shortcut: { key: 'Enter' }, when: readingKey, onShortcut: () => readOn(play, ui) },
		{ shortcut: { key: ' ' }, when: readingKey, onShortcut: () => readOn(play, ui) },
		letter('a', () => play.toggleAuto()),
		letter('l', () => ui.open('log')),
		letter('h', () => (ui.hidden = true)),
		letter('f', toggleFullscreen),
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
