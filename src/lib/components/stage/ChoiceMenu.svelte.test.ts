import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import ChoiceMenu from './ChoiceMenu.svelte';
import { playContext } from '$lib/play';
import { formActions, playState, view } from '../../../../tests/unit/play/factories';

const MENU = { messageId: 2, options: ['Follow Bram', 'Stay at the gate', 'Ask about the fog'] };

function setUp() {
	const actions = formActions();
	vi.stubGlobal('fetch', actions.fetch);
	const play = playState(view());
	render(ChoiceMenu, { props: { menu: MENU, storyLanguage: 'en' }, context: playContext(play) });
	return { play, requests: actions.requests, user: userEvent.setup() };
}

afterEach(() => {
	vi.unstubAllGlobals();
});

describe('ChoiceMenu', () => {
	it('shows each option as a form posting it as the player’s line, with the page’s idempotency key', () => {
		const { play } = setUp();
		const buttons = screen.getAllByRole('button');
		expect(buttons.map((b) => b.textContent)).toEqual(MENU.options);
		const forms = buttons.map((b) => b.closest('form'));
		for (const [i, form] of forms.entries()) {
			expect(form?.getAttribute('method')).toBe('POST');
			expect(form?.getAttribute('action')).toBe('?/turn');
			expect(Object.fromEntries(new FormData(form ?? undefined))).toEqual({ text: MENU.options[i], idempotencyKey: play.idempotencyKey });
		}
	});

	it('sends a pick once however often it (or another option) is clicked, then takes a new key', async () => {
		const { play, requests, user } = setUp();
		const key = play.idempotencyKey;
		const [first, second] = screen.getAllByRole('button');
		if (!first || !second) throw new Error('the menu has no options');
		await user.click(first);
		await user.click(first);
		await user.click(second);
		await user.dblClick(first);
		expect(requests).toHaveLength(1);
		expect(requests[0]?.form.get('text')).toBe('Follow Bram');
		expect(requests[0]?.form.get('idempotencyKey')).toBe(key);
		for (const button of screen.getAllByRole('button')) expect(button.getAttribute('aria-disabled')).toBe('true');

		requests[0]?.answer({ type: 'redirect', location: '/sessions/sess' });
		await vi.waitFor(() => expect(play.idempotencyKey).not.toBe(key));
		await user.click(second);
		expect(requests).toHaveLength(1);
	});

	it('can be picked again when the server refused the pick', async () => {
		const { requests, user } = setUp();
		await user.click(screen.getByRole('button', { name: 'Stay at the gate' }));
		requests[0]?.answer({ type: 'failure', status: 409, data: { turn: { text: 'Stay at the gate', error: { code: 'conflict' } } } });
		await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Stay at the gate' }).getAttribute('aria-disabled')).toBeNull());
		await user.click(screen.getByRole('button', { name: 'Ask about the fog' }));
		expect(requests.map((r) => r.form.get('text'))).toEqual(['Stay at the gate', 'Ask about the fog']);
	});
});
