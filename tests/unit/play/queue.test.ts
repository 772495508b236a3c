/** Play together on the play screen's state: lines queued while the GM writes, the turn that answers them, the owner's tools. */
import { describe, expect, it } from 'vitest';
import { PlayState } from '../../../src/lib/play/play.svelte';
import { translator } from '../../../src/lib/i18n/all-languages';
import { logPage, view } from './factories';
import type { PlayView } from '../../../src/lib/play/types';

function atTable(v: PlayView, role: 'owner' | 'player', userId = 'bob'): PlayState {
	return new PlayState({
		sessionId: 'sess',
		view: v,
		llmConfigured: true,
		t: translator('en'),
		fetchLog: async () => logPage(),
		seat: { role, userId }
	});
}

describe('lines queued while the GM writes', () => {
	it('shows lines sent during a turn as queued, the next turn takes them, and a taken-back line goes', async () => {
		const play = atTable(view(), 'player');
		await play.receive(1, { type: 'turn.accepted', turnId: 't1', input: 'alice: Hello.', sender: 'alice' });
		await play.receive(2, { type: 'turn.started', turnId: 't1' });
		await play.receive(3, { type: 'turn.accepted', turnId: 't2', input: 'Mira: I wave.', sender: 'bob' });
		await play.receive(4, { type: 'turn.accepted', turnId: 't3', input: 'guest0: I wait.', sender: 'carol' });
		await play.receive(5, { type: 'turn.accepted', turnId: 't4', input: 'guest1: Me too.', sender: 'dave' });
		expect(play.turn?.id).toBe('t1');
		expect(play.waiting.lines.map((l) => [l.id, l.sender])).toEqual([
			['t2', 'bob'],
			['t3', 'carol'],
			['t4', 'dave']
		]);
		await play.receive(6, { type: 'turn.cancelled', turnId: 't4' });
		expect(play.turn?.id).toBe('t1');
		await play.receive(7, { type: 'turn.committed', turnId: 't1', reply: 'Hi.', messageIds: [] });
		await play.receive(8, { type: 'turn.started', turnId: 't2' });
		await play.receive(9, { type: 'turn.merged', turnId: 't3', into: 't2', input: 'Mira: I wave.\nguest0: I wait.' });
		expect(play.turn).toMatchObject({ id: 't2', phase: 'running' });
		expect(play.waiting.lines).toEqual([]);
		expect(play.story.exchange).toMatchObject({ turnId: 't2', input: 'Mira: I wave.\nguest0: I wait.' });
	});

	it('offers undo and the like to the owner only', async () => {
		const committed = view({ lastTurn: { id: 't0', input: 'Hi', status: 'committed', failure: null, stopped: null } });
		expect(atTable(committed, 'player').undoable).toBeNull();
		expect(atTable(committed, 'owner').undoable).toEqual({ turnId: 't0', input: 'Hi' });
		const player = atTable(view(), 'player');
		await player.receive(1, { type: 'turn.accepted', turnId: 't1', input: 'Mira: Hi', sender: 'bob' });
		await player.receive(2, { type: 'turn.committed', turnId: 't1', reply: 'Hello.', messageIds: [] });
		expect(player.undoable).toBeNull();
	});

	it('counts only the reader’s own lines against their turns left', async () => {
		const play = new PlayState({
			sessionId: 'sess',
			view: view(),
			llmConfigured: true,
			t: translator('en'),
			fetchLog: async () => logPage(),
			turnsLeft: { left: 5, limit: 10 },
			seat: { role: 'player', userId: 'bob' }
		});
		await play.receive(1, { type: 'turn.accepted', turnId: 't1', input: 'alice: Hi', sender: 'alice' });
		await play.receive(2, { type: 'turn.accepted', turnId: 't2', input: 'Mira: Hi', sender: 'bob' });
		expect(play.turnsLeft?.left).toBe(4);
	});
});
