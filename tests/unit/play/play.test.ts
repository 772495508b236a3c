import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { parseSessionEvent, SESSION_EVENT_TYPES, type SessionEvent } from '../../../src/lib/types/events';
import { LogPageSchema } from '../../../src/lib/types/log';
import { readStoredSettings } from '../../../src/lib/play/settings.svelte';
import { readTurnFormError } from '../../../src/lib/play/form-errors';
import { newIdempotencyKey } from '../../../src/lib/play/keys';
import { cue, gm, logPage, player, playState, view } from './factories';
import { PlayState } from '../../../src/lib/play/play.svelte';
import { translator } from '../../../src/lib/i18n/all-languages';

describe('reading what the server sends', () => {
	it('accepts well-formed events and drops anything else (the one event schema)', () => {
		expect(parseSessionEvent('{"type":"text.delta","turnId":"t","text":"hi"}')).toEqual({ type: 'text.delta', turnId: 't', text: 'hi' });
		expect(parseSessionEvent('{"type":"turn.committed","turnId":"t","reply":"r","messageIds":[1,2],"stopped":"round_cap"}')).toMatchObject({
			stopped: 'round_cap'
		});
		for (const bad of [
			'not json',
			'[]',
			'{"type":"text.delta","turnId":"t"}',
			'{"type":"turn.committed","turnId":"t","reply":"r","messageIds":["x"]}',
			'{"type":"nope"}',
			'{"type":"image.ready","orderId":1,"target":"npc","name":"B"}'
		]) {
			expect(parseSessionEvent(bad)).toBeNull();
		}
	});

	it('names every event type for the stream listeners', () => {
		expect(SESSION_EVENT_TYPES).toContain('turn.committed');
		expect(new Set(SESSION_EVENT_TYPES).size).toBe(19);
		expect(SESSION_EVENT_TYPES).toContain('table.changed');
		expect(SESSION_EVENT_TYPES).toContain('turn.merged');
		expect(SESSION_EVENT_TYPES).toContain('turn.undone');
		expect(SESSION_EVENT_TYPES).toContain('turn.swiped');
		expect(SESSION_EVENT_TYPES).toContain('stage.staged');
		expect(SESSION_EVENT_TYPES).toContain('text.withdrawn');
	});

	it('shows the session afresh after an undo or a swipe: every record may differ from what the screen holds', async () => {
		const events: SessionEvent[] = [
			{ type: 'turn.undone', turnId: 't', undone: ['t'], input: 'x' },
			{ type: 'turn.swiped', turnId: 't' }
		];
		for (const event of events) {
			let reloads = 0;
			const state = new PlayState({ sessionId: 's', view: view(), llmConfigured: true, t: translator('en'), reload: () => reloads++ });
			await state.receive(1, event);
			expect([event.type, reloads]).toEqual([event.type, 1]);
		}
	});

	it('reads a log page only when well-formed, and never draws an image from elsewhere', () => {
		const page = {
			messages: [{ id: 1, role: 'gm', speaker: null, body: 'x', turnId: 't', createdAt: '2026-01-01T00:00:00.000Z' }],
			cues: [{ messageId: 1, paragraph: 0, ord: 0, cue: { paragraph: 0, action: 'enter', character: 'B', slot: 'left' } }],
			stageBefore: { background: null, slots: { left: null, center: null, right: null }, speaker: null },
			images: {
				characters: [
					{ name: 'B', url: 'https://evil.example/x.png', status: 'ready' },
					{ name: 'C', url: '/api/v1/sessions/s/images/k.png', status: 'ready' }
				],
				scenes: []
			}
		};
		const read = v.parse(LogPageSchema, page);
		expect(read.cues).toHaveLength(1);
		expect(read.images.characters).toEqual([
			{ name: 'B', url: null, status: 'ready' },
			{ name: 'C', url: '/api/v1/sessions/s/images/k.png', status: 'ready' }
		]);
		for (const bad of [
			{ ...page, messages: [{ id: 'x' }] },
			{ ...page, cues: [{ messageId: 1, paragraph: 0, ord: 1, cue: { action: 'dance' } }] },
			{ ...page, images: { characters: 'nope', scenes: [] } },
			'<html>'
		]) {
			expect(v.safeParse(LogPageSchema, bad).success).toBe(false);
		}
	});
});

describe('PlayState', () => {
	it('plays a turn from its events: accepted, deltas, commit with the log read after it, images swapped in', async () => {
		const reads: number[] = [];
		const play = playState(view({ log: { messages: [player(1, 't1', 'hi'), gm(2, 't1', 'Hello.')] }, lastEventId: 10 }), async (after) => {
			reads.push(after);
			return logPage({
				messages: [player(3, 't2', 'go'), gm(4, 't2', 'You go.\n\n@Bram: Off.')],
				cues: [cue(4, { paragraph: 1, action: 'enter', character: 'Bram', slot: 'center' })],
				images: { characters: [{ name: 'Bram', url: null, status: 'pending' }], scenes: [] }
			});
		});
		play.story.configure(0, false);
		await play.receive(11, { type: 'turn.accepted', turnId: 't2', input: 'go' });
		expect(play.turn).toMatchObject({ id: 't2', phase: 'accepted' });
		expect(play.canSend).toBe(false);
		await play.receive(12, { type: 'turn.started', turnId: 't2' });
		await play.receive(13, { type: 'text.delta', turnId: 't2', text: 'You go.' });
		// An event already seen (a resumed stream) is not applied twice.
		await play.receive(13, { type: 'text.delta', turnId: 't2', text: 'You go.' });
		expect(play.story.exchange?.reply).toBe('You go.');
		await play.receive(14, { type: 'turn.committed', turnId: 't2', reply: 'You go.\n\n@Bram: Off.', messageIds: [3, 4] });
		expect(reads).toEqual([2]);
		expect(play.turn).toBeNull();
		expect(play.outcome).toBeNull();
		play.story.click();
		expect(play.story.current).toMatchObject({ speaker: 'Bram', text: 'Off.' });
		expect(play.story.stage.slots.center?.character).toBe('Bram');
		expect(play.images.sprite('bram')).toEqual({ url: null, status: 'pending', expressed: true });
		await play.receive(15, { type: 'image.ready', orderId: 1, target: 'npc', name: 'Bram', url: '/api/v1/sessions/sess/images/abc' });
		expect(play.images.sprite('Bram').url).toBe('/api/v1/sessions/sess/images/abc');
	});

	it('a failed turn offers its line back for a retry; a stopped one says why', async () => {
		const play = playState(view({ lastEventId: 0 }));
		await play.receive(1, { type: 'turn.accepted', turnId: 't1', input: 'jump' });
		await play.receive(2, { type: 'text.delta', turnId: 't1', text: 'You jum' });
		await play.receive(3, { type: 'turn.failed', turnId: 't1', reason: 'provider_unavailable', errorId: 'abcdefghij', retryable: true });
		expect(play.outcome).toMatchObject({
			status: 'failed',
			input: 'jump',
			failure: { reason: 'provider_unavailable', errorId: 'abcdefghij' }
		});
		expect(play.draft).toBe('jump');
		expect(play.story.lines.map((l) => l.kind)).toEqual(['player']);
		const key = play.retryKey;
		play.submitted();
		expect(play.retryKey).not.toBe(key);

		await play.receive(4, { type: 'turn.accepted', turnId: 't2', input: 'jump' });
		expect(play.outcome).toBeNull();
		await play.receive(5, { type: 'turn.committed', turnId: 't2', reply: 'Up.', messageIds: [], stopped: 'budget:session' });
		expect(play.outcome).toMatchObject({ status: 'committed', stopped: 'budget:session' });
	});

	it('plays staged stage directions live at their paragraph: the entering speaker is lit before the commit, and a failed turn reverts them', async () => {
		const play = playState(view({ log: { messages: [player(1, 't1', 'hi'), gm(2, 't1', 'Hello.')] }, lastEventId: 10 }));
		play.story.configure(0, false);
		await play.receive(11, { type: 'turn.accepted', turnId: 't2', input: 'Who is there?' });
		await play.receive(12, {
			type: 'stage.staged',
			turnId: 't2',
			cues: [
				{ paragraph: 0, action: 'background', scene: 'Cellar' },
				{ paragraph: 1, action: 'enter', character: 'Bram', slot: 'left' }
			],
			places: [{ name: 'Cellar', kind: 'interior' }]
		});
		// The player's line: the stage as it was (the cues belong to the reply's paragraphs).
		expect(play.story.stage.background).toBeNull();
		await play.receive(13, { type: 'text.delta', turnId: 't2', text: 'Steps on the stair.\n\n@Bram: It is' });
		expect(play.story.current).toMatchObject({ paragraph: 0 });
		expect(play.story.stage.background).toEqual({ scene: 'Cellar' });
		expect(play.images.background('Cellar')).toMatchObject({ kind: 'interior', url: null });
		expect(play.story.stage.slots.left).toBeNull();
		play.story.click();
		// Bram's line is still streaming and the turn is not committed: he is on stage, lit.
		expect(play.story.current).toMatchObject({ speaker: 'Bram', partial: true });
		expect(play.story.stage.slots.left?.character).toBe('Bram');
		expect(play.story.lights.left).toBe('lit');
		await play.receive(14, { type: 'turn.failed', turnId: 't2', reason: 'provider_unavailable', errorId: 'e1', retryable: true });
		expect(play.story.stage.slots.left).toBeNull();
		expect(play.story.stage.background).toBeNull();
	});

	it('offers the choices a committed reply came with, and forgets them when the next turn starts', async () => {
		const play = playState(
			view({
				log: { messages: [player(1, 't1', 'hi'), gm(2, 't1', 'Hello.')] },
				lastEventId: 10,
				choices: { messageId: 2, options: ['Wave', 'Leave'] }
			}),
			async () => logPage({ messages: [player(3, 't2', 'Wave'), gm(4, 't2', 'She waves back.')] })
		);
		expect(play.choices).toEqual({ messageId: 2, options: ['Wave', 'Leave'] });
		await play.receive(11, { type: 'turn.accepted', turnId: 't2', input: 'Wave' });
		expect(play.choices).toBeNull();
		await play.receive(12, {
			type: 'turn.committed',
			turnId: 't2',
			reply: 'She waves back.',
			messageIds: [3, 4],
			choices: ['Follow her', 'Stay']
		});
		expect(play.choices).toEqual({ messageId: 4, options: ['Follow her', 'Stay'] });
	});

	it('resumes a turn in flight from the page data and shows a finished failure on load', () => {
		const resumed = playState(
			view({
				activeTurn: {
					id: 't9',
					input: 'wait',
					status: 'running',
					text: 'The door',
					staged: { cues: [], places: [] },
					cancelRequested: false
				}
			})
		);
		expect(resumed.turn).toMatchObject({ id: 't9', phase: 'running' });
		expect(resumed.story.exchange).toMatchObject({ turnId: 't9', reply: 'The door', outcome: 'streaming' });
		const failed = playState(view({ lastTurn: { id: 't8', input: 'run', status: 'interrupted', failure: null, stopped: null } }));
		expect(failed.outcome).toMatchObject({ status: 'interrupted', input: 'run' });
		expect(failed.story.lines.map((l) => [l.kind, l.text])).toEqual([['player', 'run']]);
	});

	it('counts the table’s changes (play together), so the seat list reads the seats again', async () => {
		const play = playState(view());
		expect(play.tableVersion).toBe(0);
		await play.receive(1, { type: 'table.changed' });
		await play.receive(1, { type: 'table.changed' });
		await play.receive(2, { type: 'table.changed' });
		expect(play.tableVersion).toBe(2);
	});

	it('counts the turns left today down with each accepted turn, once per event, never below zero; none without a quota', async () => {
		const play = new PlayState({
			sessionId: 'sess',
			view: view(),
			llmConfigured: true,
			t: translator('en'),
			fetchLog: async () => logPage(),
			turnsLeft: { left: 2, limit: 50 }
		});
		await play.receive(1, { type: 'turn.accepted', turnId: 't1', input: 'a' });
		// A resumed stream sends the same event again: it took the quota once.
		await play.receive(1, { type: 'turn.accepted', turnId: 't1', input: 'a' });
		expect(play.turnsLeft).toEqual({ left: 1, limit: 50 });
		await play.receive(2, { type: 'turn.committed', turnId: 't1', reply: 'Ok.', messageIds: [] });
		await play.receive(3, { type: 'turn.accepted', turnId: 't2', input: 'b' });
		await play.receive(4, { type: 'turn.committed', turnId: 't2', reply: 'Ok.', messageIds: [] });
		await play.receive(5, { type: 'turn.accepted', turnId: 't3', input: 'c' });
		expect(play.turnsLeft).toEqual({ left: 0, limit: 50 });

		const plus = playState(view());
		await plus.receive(1, { type: 'turn.accepted', turnId: 't1', input: 'a' });
		expect(plus.turnsLeft).toBeNull();
	});

	it('events of a checkpoint turn it never saw end nothing on screen', async () => {
		const play = playState(view());
		await play.receive(1, { type: 'turn.accepted', turnId: 't1', input: 'a' });
		await play.receive(2, { type: 'turn.failed', turnId: 'checkpoint-x', reason: 'internal', errorId: 'x', retryable: false });
		expect(play.turn?.id).toBe('t1');
		expect(play.outcome).toBeNull();
	});
});

describe('small readers', () => {
	it('reader settings fall back to defaults, and to instant text for reduced motion', () => {
		expect(readStoredSettings(null, false)).toMatchObject({ speed: 'normal', auto: false });
		expect(readStoredSettings(null, true)).toMatchObject({ speed: 'instant' });
		expect(readStoredSettings('{"speed":"warp","auto":"yes"}', false)).toMatchObject({ speed: 'normal', auto: false });
		expect(readStoredSettings('{"speed":"fast","auto":true}', true)).toMatchObject({ speed: 'fast', auto: true });
		expect(readStoredSettings('{', false).speed).toBe('normal');
	});

	it('turn form errors are read back only when well-formed', () => {
		expect(readTurnFormError({ turn: { text: 'x', error: { code: 'tooLong', length: 9, max: 5 } } })).toEqual({
			code: 'tooLong',
			length: 9,
			max: 5
		});
		expect(readTurnFormError({ turn: { error: { code: 'tooLong' } } })).toBeNull();
		expect(readTurnFormError(undefined)).toBeNull();
	});

	it('idempotency keys are fresh and match the server pattern', () => {
		const a = newIdempotencyKey();
		expect(a).toMatch(/^[A-Za-z0-9_.:-]{8,128}$/);
		expect(newIdempotencyKey()).not.toBe(a);
	});
});
