import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import userEvent from '@testing-library/user-event';
import { shortcuts } from '$lib/actions/shortcuts';
import { ScreenUi } from './screen.svelte';
import { screenKeys } from './screen-keys';
import { gm, player, playState, view } from '../../../../tests/unit/play/factories';

/** The play screen's keys on the window, over a story of the player's line and three paragraphs. */
function setUp({ titleOpen = false } = {}) {
	const play = playState(view({ log: { messages: [player(1, 't1', 'I look around.'), gm(2, 't1', 'One.\n\nTwo.\n\nThree.')] } }));
	const ui = new ScreenUi(play);
	ui.hydrated = true;
	ui.titleOpen = titleOpen;
	const toggleFullscreen = vi.fn();
	const keys = shortcuts(window, screenKeys(play, ui, { toggleFullscreen, screen: () => undefined }));
	cleanups.push(() => keys.destroy?.());
	const line = () => play.story.current?.text;
	return { play, ui, toggleFullscreen, line, user: userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) }) };
}

const cleanups: (() => void)[] = [];

beforeEach(() => {
	vi.useFakeTimers();
});

afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
	document.body.replaceChildren();
	vi.useRealTimers();
});

describe('the play screen’s keys', () => {
	it('Enter and Space read on; A auto; L log; H hides (any key shows again); F full screen; ? help; Esc closes, else the menu', async () => {
		const { play, ui, toggleFullscreen, line, user } = setUp();
		expect(line()).toBe('I look around.');
		await user.keyboard('{Enter}');
		expect(line()).toBe('One.');
		await user.keyboard(' ');
		expect(line()).toBe('Two.');

		await user.keyboard('a');
		expect(play.settings.auto).toBe(true);
		await user.keyboard('A');
		expect(play.settings.auto).toBe(false);

		await user.keyboard('l');
		expect(ui.overlay).toBe('log');
		// Under a layer the story's keys wait; Esc closes it.
		await user.keyboard('a{Enter}h');
		expect([play.settings.auto, line(), ui.hidden]).toEqual([false, 'Two.', false]);
		await user.keyboard('{Escape}');
		expect(ui.overlay).toBeNull();

		await user.keyboard('h');
		expect(ui.hidden).toBe(true);
		await user.keyboard('x');
		expect(ui.hidden).toBe(false);
		await user.keyboard('h{Enter}');
		expect([ui.hidden, line()]).toEqual([false, 'Two.']);
		await user.keyboard('h{Escape}');
		expect([ui.hidden, ui.overlay]).toEqual([false, null]);

		await user.keyboard('f');
		expect(toggleFullscreen).toHaveBeenCalledOnce();

		await user.keyboard('?');
		expect(ui.overlay).toBe('help');
		await user.keyboard('{Escape}');
		expect(ui.overlay).toBeNull();
		await user.keyboard('{Escape}');
		expect(ui.overlay).toBe('menu');
	});

	it('leaves keys typed into a field to the field, but Esc still closes the layer', async () => {
		const { play, ui, toggleFullscreen, line, user } = setUp();
		const field = document.body.appendChild(document.createElement('textarea'));
		await user.click(field);
		await user.keyboard('alhf? {Enter}');
		expect(field.value).toBe('alhf? \n');
		expect([play.settings.auto, ui.overlay, ui.hidden, line()]).toEqual([false, null, false, 'I look around.']);
		expect(toggleFullscreen).not.toHaveBeenCalled();
		ui.open('log');
		field.focus();
		await user.keyboard('{Escape}');
		expect(ui.overlay).toBeNull();
	});

	it('leaves shortcuts with Ctrl, Alt or Meta to the browser', async () => {
		const { play, ui, user } = setUp();
		await user.keyboard('{Control>}l{/Control}{Alt>}a{/Alt}{Meta>}h{/Meta}');
		expect([ui.overlay, play.settings.auto, ui.hidden]).toEqual([null, false, false]);
	});

	it('on the title card, Enter, Space or Esc start the story and the other keys wait', async () => {
		const { ui, line, user } = setUp({ titleOpen: true });
		await user.keyboard('alh');
		expect([ui.titleOpen, ui.overlay, ui.hidden]).toEqual([true, null, false]);
		await user.keyboard('{Enter}');
		expect([ui.titleOpen, line()]).toEqual([false, 'I look around.']);
		ui.titleOpen = true;
		await user.keyboard('{Escape}');
		expect([ui.titleOpen, ui.overlay]).toEqual([false, null]);
	});

	it('Ctrl held races to the end of the text and stops when let go (or when the window loses the keyboard)', async () => {
		const { play, ui, line, user } = setUp();
		await user.keyboard('{Control>}');
		expect(ui.forcing).toBe('held');
		await vi.advanceTimersByTimeAsync(1_000);
		expect(line()).toBe('Three.');
		expect(play.story.complete && !play.story.hasNext).toBe(true);
		await user.keyboard('{/Control}');
		expect(ui.forcing).toBeNull();

		await user.keyboard('{Control>}');
		expect(ui.forcing).toBe('held');
		window.dispatchEvent(new FocusEvent('blur'));
		expect(ui.forcing).toBeNull();
		await user.keyboard('{/Control}');
	});

	it('Ctrl does not race under a layer or from a text field', async () => {
		const { ui, line, user } = setUp();
		ui.open('log');
		await user.keyboard('{Control>}');
		await vi.advanceTimersByTimeAsync(1_000);
		expect([ui.forcing, line()]).toEqual([null, 'I look around.']);
		await user.keyboard('{/Control}');
		ui.close();
		await user.click(document.body.appendChild(document.createElement('input')));
		await user.keyboard('{Control>}');
		await vi.advanceTimersByTimeAsync(1_000);
		expect([ui.forcing, line()]).toEqual([null, 'I look around.']);
		await user.keyboard('{/Control}');
	});
});
