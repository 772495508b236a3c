import { describe, expect, it, vi } from 'vitest';
import { translator } from '$lib/i18n';
import { PlayState } from '$lib/play';
import type { PanelClient } from '$lib/components/panels/api';
import type { AlternativesDto } from '$lib/types/api';
import { LastTurn } from './last-turn.svelte';
import { gm, player, view } from '../../../../tests/unit/play/factories';

/** The last exchange (turn t2) on screen, with a client that answers the replies to it as `items`. */
function setUp(items: AlternativesDto['items']) {
	const reload = vi.fn();
	const play = new PlayState({
		sessionId: 'sess',
		view: view({
			log: { messages: [player(1, 't2', 'I walk on.'), gm(2, 't2', 'You walk on.')] },
			lastTurn: { id: 't2', input: 'I walk on.', status: 'committed', failure: null, stopped: null }
		}),
		llmConfigured: true,
		t: translator('en'),
		reload
	});
	const client = {
		alternatives: vi.fn(() => Promise.resolve({ items })),
		chooseAlternative: vi.fn(() => Promise.resolve({ items })),
		newAlternative: vi.fn(() => Promise.resolve({ turnId: 't3', status: 'accepted' as const }))
	};
	const lastTurn = new LastTurn(play, client as unknown as PanelClient);
	return { lastTurn, client, reload };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('swipes on the last exchange', () => {
	it('→ and ← do nothing until the replies are read; then they choose the next or previous reply', async () => {
		const { lastTurn, client, reload } = setUp([
			{ id: 't1', text: 'One.', current: false },
			{ id: 't2', text: 'Two.', current: true },
			{ id: 't4', text: 'Three.', current: false }
		]);
		lastTurn.swipe(1);
		expect(client.newAlternative).not.toHaveBeenCalled();
		expect(client.chooseAlternative).not.toHaveBeenCalled();
		lastTurn.readAlternatives();
		await settle();
		expect(lastTurn.position).toEqual({ at: 2, of: 3 });
		lastTurn.swipe(-1);
		await settle();
		expect(client.chooseAlternative).toHaveBeenLastCalledWith('t2', 't1');
		expect(reload).toHaveBeenCalledOnce();
	});

	it('→ on the newest reply asks for another, under one key across a retry', async () => {
		const { lastTurn, client } = setUp([
			{ id: 't1', text: 'One.', current: false },
			{ id: 't2', text: 'Two.', current: true }
		]);
		lastTurn.readAlternatives();
		await settle();
		client.newAlternative.mockRejectedValueOnce(new Error('offline'));
		lastTurn.swipe(1);
		await settle();
		lastTurn.swipe(1);
		await settle();
		expect(client.chooseAlternative).not.toHaveBeenCalled();
		expect(client.newAlternative).toHaveBeenCalledTimes(2);
		const [first, second] = client.newAlternative.mock.calls.map((c: unknown[]) => c);
		expect(first).toEqual(second);
		expect(first?.[0]).toBe('t2');
	});
});
