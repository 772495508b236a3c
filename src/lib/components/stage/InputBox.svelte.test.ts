import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import InputBox from './InputBox.svelte';
import { playContext, type PlayState } from '$lib/play';
import { formActions, playState, view } from '../../../../tests/unit/play/factories';

function setUp(play: PlayState = playState(view())) {
	const actions = formActions();
	vi.stubGlobal('fetch', actions.fetch);
	render(InputBox, { props: { maxInputChars: 4000, locale: 'en', storyLanguage: 'en' }, context: playContext(play) });
	const box = screen.getByRole('textbox', { name: 'What do you do?' });
	if (!(box instanceof HTMLTextAreaElement)) throw new Error('the input box is not a textarea');
	return { play, box, requests: actions.requests, user: userEvent.setup() };
}

afterEach(() => {
	vi.unstubAllGlobals();
});

describe('InputBox', () => {
	it('sends the line on Enter, with the page’s key; once accepted the box empties and the next line gets a new key', async () => {
		const { play, box, requests, user } = setUp();
		const key = play.idempotencyKey;
		await user.type(box, 'I open the gate.{Enter}');
		expect(requests).toHaveLength(1);
		expect(requests[0]?.url).toMatch(/\?\/turn$/);
		expect(Object.fromEntries(requests[0]?.form ?? [])).toEqual({ text: 'I open the gate.', idempotencyKey: key });
		requests[0]?.answer({ type: 'redirect', location: '/sessions/sess' });
		await vi.waitFor(() => expect(box.value).toBe(''));
		expect(play.idempotencyKey).not.toBe(key);
	});

	it('starts a new line on Shift+Enter, and sends nothing', async () => {
		const { box, requests, user } = setUp();
		await user.type(box, 'First.{Shift>}{Enter}{/Shift}Second.');
		expect(box.value).toBe('First.\nSecond.');
		expect(requests).toHaveLength(0);
	});

	it('sends nothing while the game master is writing, and says so', async () => {
		const play = playState(view());
		play.turn = { id: 't9', input: 'I wait.', phase: 'running', cancelRequested: false };
		const { box, requests, user } = setUp(play);
		await user.type(box, 'Hurry up.{Enter}');
		await user.click(screen.getByRole('button', { name: 'Send' }));
		expect(requests).toHaveLength(0);
		expect(screen.getByRole('button', { name: 'Send' }).getAttribute('aria-disabled')).toBe('true');
		expect(screen.getByText('The game master is still answering. Wait, or stop the turn.')).toBeTruthy();
		// The line is kept for when the turn is over.
		expect(box.value).toBe('Hurry up.');
	});

	it('shows the server’s refusal of a control character, keeping the line and the key', async () => {
		const { play, box, requests, user } = setUp();
		const key = play.idempotencyKey;
		await user.click(box);
		await user.paste('I knock\u0000 twice');
		await user.keyboard('{Enter}');
		expect(requests[0]?.form.get('text')).toBe('I knock\u0000 twice');
		requests[0]?.answer({
			type: 'failure',
			status: 400,
			data: { turn: { text: 'I knock\u0000 twice', error: { code: 'controlCharacter' } } }
		});
		const alert = await screen.findByRole('alert');
		expect(alert.textContent).toBe('The text contains a control character (such as NUL); only tabs and line breaks are allowed.');
		expect(box.getAttribute('aria-invalid')).toBe('true');
		expect(box.value).toBe('I knock\u0000 twice');
		expect(play.idempotencyKey).toBe(key);
	});
});
