import { describe, it, expect, afterEach } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../../helpers/env';
import { eq } from 'drizzle-orm';
import { settled, turnHarness, type TurnHarness } from '../../helpers/turns';
import { changedTables, dumpSession, type Dump } from '../../helpers/dump';
import { lastTurn, type ScriptedReply } from '../../mock-llm';
import { newId, sessionSchema, undoLog } from '../../../src/lib/server/db';
import { acceptTurn, switchModel } from '../../../src/lib/server/turn';
import { readSettings } from '../../../src/lib/server/session-setup';
import { readEventsAfter } from '../../../src/lib/server/events';
import { undoTurn, rerollTurn, TimeTravelError } from '../../../src/lib/server/timetravel';
import { loadScopes } from '../../../src/lib/server/budget';

let h: TurnHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

const dump = (h: TurnHarness): Promise<Dump> => h.use((s) => dumpSession(s.client));

const undo = (h: TurnHarness, turnId: string, key = newId()) => h.use((s) => undoTurn(h.app, s, turnId, key));

/** A first turn that creates one record of every kind the GM writes. */
const SETUP: ScriptedReply[] = [
	{
		toolCalls: [
			{ name: 'update_state', arguments: { patch: { location: 'North Gate', hp: 10, hpMax: 10, inventory: ['lantern'] } } },
			{ name: 'journal_append', arguments: { entry: 'Day 1: the party reached the North Gate.' } },
			{ name: 'memory', arguments: { action: 'create', name: 'Bram', body: 'Gate guard. Owes the PC a favour.' } },
			{ name: 'story_begin', arguments: { type: 'plot', key: 'arc-1', title: 'The stolen seal', body: 'The magistrate stole the seal.' } },
			{
				name: 'story_begin',
				arguments: { type: 'quest', key: 'find-seal', title: 'Find the seal', body: 'Bram asks the PC to find the seal.' }
			},
			{ name: 'story_begin', arguments: { type: 'clue', key: 'wax', title: 'Red wax', body: 'Red wax on the magistrate’s cuff.' } },
			{ name: 'register_npc', arguments: { name: 'Bram', appearance: 'A tall guard with a scarred cheek and a green cloak.' } },
			{ name: 'set_scene', arguments: { name: 'North Gate', description: 'A massive stone gate, torches, light snow at dusk.' } },
			{
				name: 'adv_stage',
				arguments: {
					cues: [{ paragraph: 0, action: 'enter', character: 'Bram', slot: 'left' }],
					choices: ['Ask about the seal', 'Walk on']
				}
			}
		]
	},
	{ text: 'Bram waves you over.\n\n@Bram: A word, traveller.' }
];

/** A second turn that changes, adds and deletes records of every kind (the one that is undone). */
const CHANGES: ScriptedReply[] = [
	{
		toolCalls: [
			{
				name: 'update_state',
				arguments: { patch: { location: 'Cellar', hp: 7, inventory: ['lantern', 'rope'], flags: { metBram: true } } }
			},
			{ name: 'journal_append', arguments: { entry: 'Day 1, night: the cellar under the magistrate’s house.' } },
			{ name: 'memory', arguments: { action: 'edit', name: 'Bram', body: 'Gate guard. Paid back his favour.' } },
			{ name: 'memory', arguments: { action: 'create', name: 'Mira', body: 'The magistrate’s clerk; nervous.' } },
			{ name: 'story_revise', arguments: { key: 'arc-1', title: 'The stolen seal', body: 'The clerk stole the seal for the magistrate.' } },
			{ name: 'story_advance', arguments: { action: 'confirm_truth', key: 'thief', title: 'The thief', body: 'Mira took the seal.' } },
			{
				name: 'story_advance',
				arguments: { action: 'resolve_quest', key: 'find-seal', result: 'Found in the cellar.', next_plan: 'Return it to Bram.' }
			},
			{ name: 'story_advance', arguments: { action: 'reveal', key: 'wax' } },
			{ name: 'register_npc', arguments: { name: 'Bram', appearance: 'A tall guard, scarred cheek, now in a red cloak.' } },
			{ name: 'register_npc', arguments: { name: 'Mira', appearance: 'A thin clerk with ink-stained fingers and round glasses.' } },
			{ name: 'set_scene', arguments: { name: 'Cellar', description: 'A damp cellar, barrels, one lamp.' } },
			{
				name: 'adv_stage',
				arguments: {
					cues: [
						{ paragraph: 0, action: 'background', scene: 'Cellar' },
						{ paragraph: 1, action: 'enter', character: 'Mira', slot: 'right' }
					],
					choices: ['Confront her', 'Hide']
				}
			}
		]
	},
	{ text: 'The cellar smells of wine.\n\n@Mira: You should not be here.' }
];

describe('undo restores every record exactly', () => {
	it('a turn that wrote every record kind: the dump before it equals the dump after it and its undo', async () => {
		h = await turnHarness('openai');
		h.mock.script(SETUP);
		expect((await h.play('I walk to the north gate')).status).toBe('committed');
		await settled(h);
		const before = await dump(h);

		h.mock.script(CHANGES);
		const turn = await h.play('I sneak into the cellar');
		expect(turn.status).toBe('committed');
		await settled(h);
		const during = await dump(h);
		// The test means something only if the turn changed every kind of record.
		expect(changedTables(before, during)).toEqual(
			expect.arrayContaining([
				'image_orders',
				'journal',
				'log_messages',
				'memory_notes',
				'meta',
				'npcs',
				'scenes',
				'sections',
				'section_vectors',
				'stage_cues',
				'state',
				'story_entries',
				'turns',
				'fts:sections_trigram',
				'fts:sections_words'
			])
		);

		const { outcome, created } = await undo(h, turn.id);
		expect(created).toBe(true);
		expect(outcome).toMatchObject({ turnId: turn.id, input: 'I sneak into the cellar', undone: [turn.id] });
		await settled(h);
		expect(changedTables(before, await dump(h))).toEqual([]);
		expect(await dump(h)).toEqual(before);
	});

	it('the undo log holds only what the turn wrote, and an undone turn leaves no log behind', async () => {
		h = await turnHarness('openai');
		h.mock.script(SETUP);
		const turn = await h.play('I walk to the north gate');
		const logged = await h.use((s) => s.db.select().from(sessionSchema.undoLog).where(eq(sessionSchema.undoLog.turnId, turn.id)));
		const tables = new Set(logged.map((r) => r.tbl));
		expect([...tables].sort()).toEqual([
			'image_orders',
			'journal',
			'log_messages',
			'memory_notes',
			'meta',
			'npcs',
			'scenes',
			'sections',
			'stage_cues',
			'state',
			'story_entries',
			'witnesses'
		]);
		// Nothing outside the commit is captured: the image job finished after it, the events and ledger are not records.
		expect(await h.use((s) => s.db.select().from(sessionSchema.undoCapture))).toEqual([]);
		await undo(h, turn.id);
		expect(await h.use((s) => s.db.select().from(sessionSchema.undoLog))).toEqual([]);
	});

	it('undoes turn after turn, back to the start', async () => {
		h = await turnHarness('openai');
		// The embedder's first pass creates the vector table (runner work, not a turn's).
		h.app.runner.kick(h.sessionId);
		await settled(h);
		const empty = await dump(h);
		h.mock.script(SETUP);
		const first = await h.play('I walk to the north gate');
		await settled(h);
		const afterFirst = await dump(h);
		h.mock.script(CHANGES);
		const second = await h.play('I sneak into the cellar');
		await undo(h, second.id);
		await settled(h);
		expect(await dump(h)).toEqual(afterFirst);
		await undo(h, first.id);
		await settled(h);
		expect(changedTables(empty, await dump(h))).toEqual([]);
	});

	it('a checkpoint that ran after the turn goes with it: the summary is gone and the window is what it was', async () => {
		h = await turnHarness('openai', { KANTERA_CHECKPOINT_TOKENS: '40' }, { countTokens: (t) => t.length });
		h.mock.script([{ text: 'GM: the gate.' }]);
		await h.play('gate');
		await settled(h);
		const before = await dump(h);
		h.mock.script([
			{ text: 'GM: a long reply that passes the threshold.', usage: { inputTokens: 200, outputTokens: 40 } },
			{ text: '## Current scene\nThe gate at dusk.' }
		]);
		const turn = await h.play('I look around carefully');
		const turns = await h.turns();
		expect(turns.filter((t) => t.kind === 'checkpoint' && t.status === 'committed')).toHaveLength(1);
		expect(await h.use((s) => s.db.select().from(sessionSchema.summaries))).toHaveLength(1);
		const { outcome } = await undo(h, turn.id);
		expect(outcome.undone).toHaveLength(2);
		await settled(h);
		expect(changedTables(before, await dump(h))).toEqual([]);
		// The next request sees the window as it was: the first exchange, no summary.
		h.mock.script([{ text: 'GM: again.' }]);
		await h.play('gate again');
		const next = h.mock.requests.at(-1);
		expect(next?.openai?.messages.some((m) => typeof m.content === 'string' && m.content.includes('The gate at dusk.'))).toBe(false);
		expect(next?.openai?.messages.map((m) => m.content)).toEqual(expect.arrayContaining(['gate', 'GM: the gate.', 'gate again']));
	});

	it('a provider hand-off after the turn goes with it (the model switch too)', async () => {
		h = await turnHarness('openai');
		const harness = h;
		h.mock.script([{ text: 'You find a brass key.' }]);
		await h.play('I search the study');
		await settled(h);
		const before = await dump(h);
		h.mock.script([{ text: 'The key turns.' }, { text: '## Current scene\nThe study; the PC holds a brass key.' }]);
		const turn = await h.play('I try the key');
		expect(
			(await h.use((s) => switchModel(harness.app.config, s, harness.userId, { provider: 'anthropic', model: 'claude-next' }))).switched
		).toBe('after_handoff');
		h.app.runner.kick(h.sessionId);
		await settled(h);
		expect(await h.use((s) => readSettings(s.db, harness.app.config))).toMatchObject({ provider: 'anthropic', model: 'claude-next' });
		const { outcome } = await undo(h, turn.id);
		expect(outcome.undone).toHaveLength(2);
		await settled(h);
		expect(changedTables(before, await dump(h))).toEqual([]);
		expect(await h.use((s) => readSettings(s.db, harness.app.config))).toMatchObject({ provider: 'openai', model: 'mock-model' });
	});

	it('a turn played after a hand-off is undone under the new model, the hand-off stays', async () => {
		h = await turnHarness('openai');
		const harness = h;
		h.mock.script([{ text: 'You find a brass key.' }, { text: '## Current scene\nThe study.' }]);
		await h.play('I search the study');
		await h.use((s) => switchModel(harness.app.config, s, harness.userId, { provider: 'anthropic', model: 'claude-next' }));
		h.app.runner.kick(h.sessionId);
		await settled(h);
		const before = await dump(h);
		h.mock.script([{ text: 'The new GM continues.' }]);
		const turn = await h.play('I leave');
		expect(h.mock.requests.at(-1)?.api).toBe('anthropic');
		await undo(h, turn.id);
		await settled(h);
		expect(changedTables(before, await dump(h))).toEqual([]);
	});

	it('image jobs of the turn still pending are cancelled; the finished ones stay in the store', async () => {
		h = await turnHarness('openai');
		h.mock.script(SETUP);
		const first = await h.play('I walk to the north gate');
		const done = await h.use((s) => s.db.select().from(sessionSchema.imageOrders));
		const image = done[0]?.image;
		expect(image).toBeTruthy();
		await settled(h);
		const before = await dump(h);
		// Stop the image runner from picking up the next turn's orders, so they are pending at the undo.
		await h.app.images.stop();
		h.mock.script(CHANGES);
		const turn = await h.play('I sneak into the cellar');
		const pending = await h.use((s) => s.db.select().from(sessionSchema.imageOrders).where(eq(sessionSchema.imageOrders.turnId, turn.id)));
		expect(pending.length).toBeGreaterThan(0);
		expect(pending.every((o) => o.status === 'pending')).toBe(true);
		await undo(h, turn.id);
		await h.app.runner.idle();
		expect(changedTables(before, await dump(h))).toEqual([]);
		expect(await h.use((s) => s.db.select().from(sessionSchema.imageOrders).where(eq(sessionSchema.imageOrders.turnId, turn.id)))).toEqual(
			[]
		);
		// The first turn's finished image is still served from the store.
		expect(image && (await h.app.images.store.get(h.sessionId, image))).toBeTruthy();
		expect(first.status).toBe('committed');
	});
});

describe('undo rules', () => {
	it('is idempotent under its key; a second undo of the same turn with a new key is refused', async () => {
		h = await turnHarness('openai');
		h.mock.script([{ text: 'One.' }]);
		const turn = await h.play('one');
		const key = newId();
		const a = await undo(h, turn.id, key);
		const b = await undo(h, turn.id, key);
		expect(a.created).toBe(true);
		expect(b).toMatchObject({ created: false, outcome: { turnId: turn.id, undone: [turn.id] } });
		await expect(undo(h, turn.id)).rejects.toMatchObject({ code: 'already_undone' });
		const events = (await h.use((s) => readEventsAfter(s.db, 0))).map((e) => e.event);
		expect(events.filter((e) => e.type === 'turn.undone')).toEqual([
			{ type: 'turn.undone', turnId: turn.id, undone: [turn.id], input: 'one' }
		]);
	});

	it('only the last turn can be undone, and not while a turn is in progress', async () => {
		h = await turnHarness('openai');
		h.mock.script([{ text: 'One.' }, { text: 'Two.' }]);
		const one = await h.play('one');
		const two = await h.play('two');
		await expect(undo(h, one.id)).rejects.toBeInstanceOf(TimeTravelError);
		await expect(undo(h, one.id)).rejects.toMatchObject({ code: 'not_last' });
		const harness = h;
		await h.use((s) => acceptTurn(harness.app, s, { userId: harness.userId, text: 'three', idempotencyKey: newId() }));
		await expect(undo(h, two.id)).rejects.toMatchObject({ code: 'busy' });
		await expect(undo(h, 'nosuchturn')).rejects.toMatchObject({ code: 'not_found' });
	});

	it('the budget still counts what an undone turn spent', async () => {
		const d = tempDir();
		const prices = path.join(d.dir, 'prices.json');
		// 9 dollars per million input tokens: one input token costs exactly 9 micro-dollars.
		writeFileSync(prices, JSON.stringify({ 'mock-model': { input: 9, output: 0 } }));
		h = await turnHarness('openai', { KANTERA_PRICES_FILE: prices });
		h.mock.script([{ text: 'One.', usage: { inputTokens: 1000, outputTokens: 5 } }]);
		const turn = await h.play('one');
		const harness = h;
		const spent = async () =>
			(
				await loadScopes(
					harness.app.control.db,
					{ userId: harness.userId, sessionId: harness.sessionId, turnId: 'x' },
					{ ...harness.app.config.engine.budget, maxToolRounds: 10 },
					Date.now()
				)
			)
				.filter((sc) => sc.scope === 'session' || sc.scope === 'user_day')
				.map((sc) => sc.spent);
		expect(await spent()).toEqual([9000, 9000]);
		await undo(h, turn.id);
		expect(await spent()).toEqual([9000, 9000]);
		// The ledger row of the undone turn stays in the session database too.
		expect(await h.use((s) => s.db.select().from(sessionSchema.ledger).where(eq(sessionSchema.ledger.turnId, turn.id)))).toHaveLength(1);
		d.remove();
	});
});

describe('reroll and edit', () => {
	it('reroll sends the same line once: one LLM request, the old reply gone, a new one in its place', async () => {
		h = await turnHarness('openai');
		h.mock.script([{ text: 'A dull reply.' }]);
		const turn = await h.play('I open the door');
		await settled(h);
		const requestsBefore = h.mock.requests.length;
		h.mock.setHandler((r) => {
			const last = lastTurn(r);
			return { text: `A better reply to: ${last.kind === 'user' ? last.text : '?'}` };
		});
		const key = newId();
		const harness = h;
		const rerolled = await h.use((s) => rerollTurn(harness.app, s, harness.userId, turn.id, { key }));
		expect(rerolled.undone?.undone).toEqual([turn.id]);
		await settled(h);
		expect(h.mock.requests.length - requestsBefore).toBe(1);
		const last = h.mock.requests.at(-1);
		expect(last && lastTurn(last)).toEqual({ kind: 'user', text: 'I open the door' });
		// The old exchange is not in the request's window.
		expect(last?.openai?.messages.some((m) => m.content === 'A dull reply.')).toBe(false);
		const log = await h.use((s) => s.db.select({ body: sessionSchema.logMessages.body }).from(sessionSchema.logMessages));
		expect(log.map((m) => m.body)).toEqual(['I open the door', 'A better reply to: I open the door']);
		// A resend of the reroll answers the same new turn and sends nothing.
		const again = await h.use((s) => rerollTurn(harness.app, s, harness.userId, turn.id, { key }));
		expect(again.turn).toMatchObject({ turnId: rerolled.turn.turnId, created: false });
		expect(again.undone).toBeUndefined();
		await settled(h);
		expect(h.mock.requests.length - requestsBefore).toBe(1);
	});

	it('edit resends the last turn with a new line', async () => {
		h = await turnHarness('openai');
		h.mock.script([{ text: 'You fall.' }, { text: 'You climb carefully.' }]);
		const turn = await h.play('I jump');
		const harness = h;
		await h.use((s) => rerollTurn(harness.app, s, harness.userId, turn.id, { key: newId(), text: 'I climb down' }));
		await settled(h);
		const log = await h.use((s) => s.db.select({ body: sessionSchema.logMessages.body }).from(sessionSchema.logMessages));
		expect(log.map((m) => m.body)).toEqual(['I climb down', 'You climb carefully.']);
	});

	it('a refused reroll undoes nothing', async () => {
		h = await turnHarness('openai');
		h.mock.script([{ text: 'One.' }]);
		const turn = await h.play('one');
		await settled(h);
		const before = await dump(h);
		const harness = h;
		await expect(h.use((s) => rerollTurn(harness.app, s, harness.userId, turn.id, { key: newId(), text: '   ' }))).rejects.toMatchObject({
			code: 'invalid_input'
		});
		expect(changedTables(before, await dump(h))).toEqual([]);
	});
});

describe('capture triggers follow the live schema', () => {
	it('captures every table but the listed ones, and replaces a trigger when a column is added', async () => {
		h = await turnHarness('openai');
		const names = await h.use(async (s) => (await undoLog.capturedTables(undoLog.clientQuery(s.client))).map((t) => t.name).sort());
		expect(names).toEqual([
			'documents',
			'image_orders',
			'journal',
			'log_messages',
			'memory_notes',
			'meta',
			'npcs',
			'scenes',
			'sections',
			'stage_cues',
			'state',
			'story_entries',
			'summaries',
			'witnesses'
		]);
		const changed = await h.use(async (s) => {
			await s.client.execute('ALTER TABLE journal ADD COLUMN mood text');
			return undoLog.ensureUndoTriggers(s.client);
		});
		// The journal's update and delete triggers name the new column; its insert trigger is unchanged.
		expect(changed).toBe(4);
		expect(await h.use((s) => undoLog.ensureUndoTriggers(s.client))).toBe(0);
	});
});
