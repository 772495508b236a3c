import { describe, it, expect, afterEach } from 'vitest';
import { eq } from 'drizzle-orm';
import { turnHarness, type TurnHarness, type Vendor } from '../../helpers/turns';
import { lastTurn, systemTextOf } from '../../mock-llm';
import { controlSchema, sessionSchema } from '../../../src/lib/server/db';
import { journal, log } from '../../../src/lib/server/records';
import * as stage from '../../../src/lib/server/stage';
import { acceptTurn, finishedBeforeQuery, LEASE_MS } from '../../../src/lib/server/turn';
import { readEventsAfter, pruneStreamingEvents } from '../../../src/lib/server/events';
import { prologueSource } from '../../../src/lib/server/sessions/start';
import { getWorld } from '../../../src/lib/server/worlds';
import { writePrologue } from '../../helpers/prologue';

let h: TurnHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

const counts = (h: TurnHarness) =>
	h.use(async (s) => ({
		journal: (await journal.recent(s.db, 1000)).length,
		log: await log.count(s.db),
		ledger: (await s.db.select().from(sessionSchema.ledger)).length
	}));

describe.each<Vendor>(['openai', 'anthropic'])('a GM turn (%s)', (vendor) => {
	it('runs a valid tool call, streams text and commits records, messages and ledger together', async () => {
		h = await turnHarness(vendor);
		h.mock.script([
			{ toolCalls: [{ name: 'journal_append', arguments: { entry: 'Day 1: the party reached the North Gate.' } }] },
			{ text: 'The guard Bram waves you through the North Gate.' }
		]);
		const turn = await h.play('I walk to the north gate');
		expect(turn.status).toBe('committed');
		expect(turn.reply).toBe('The guard Bram waves you through the North Gate.');
		const c = await counts(h);
		expect(c).toEqual({ journal: 1, log: 2, ledger: 2 });
		const events = await h.use((s) => readEventsAfter(s.db, 0));
		const types = events.map((e) => e.event.type);
		expect(types[0]).toBe('turn.accepted');
		expect(types).toContain('text.delta');
		expect(types.at(-1)).toBe('turn.committed');
		const streamed = events.flatMap((e) => (e.event.type === 'text.delta' ? [e.event.text] : [])).join('');
		expect(streamed).toBe(turn.reply);
		// The tool result went back to the model in its wire format.
		const second = h.mock.requests[1];
		expect(second && lastTurn(second)).toMatchObject({
			kind: 'tool',
			results: [{ content: expect.stringMatching(/Journal entry #1 recorded/) }]
		});
	});

	it('reports malformed tool arguments to the model and does not crash the turn', async () => {
		h = await turnHarness(vendor);
		h.mock.script([
			{ toolCalls: [{ name: 'journal_append', arguments: '{"entry": ' }] },
			{ toolCalls: [{ name: 'journal_append', arguments: { text: 'wrong field' } }] },
			{ text: 'Fine.' }
		]);
		const turn = await h.play('hello');
		expect(turn.status).toBe('committed');
		const r2 = h.mock.requests[1];
		const r3 = h.mock.requests[2];
		expect(r2 && JSON.stringify(lastTurn(r2))).toMatch(/not valid JSON/);
		expect(r3 && JSON.stringify(lastTurn(r3))).toMatch(/invalid arguments/);
		expect((await counts(h)).journal).toBe(0);
	});

	it('a reply without tool calls runs no handler', async () => {
		h = await turnHarness(vendor);
		h.mock.script([{ text: 'Rain falls on the cobbles.' }]);
		const turn = await h.play('I wait');
		expect(turn.status).toBe('committed');
		expect(h.mock.requests).toHaveLength(1);
		expect((await counts(h)).journal).toBe(0);
	});

	it('a failed turn leaves every record unchanged, and its resend records once', async () => {
		h = await turnHarness(vendor);
		h.mock.script([
			{ toolCalls: [{ name: 'journal_append', arguments: { entry: 'Found a brass key.' } }] },
			{ fault: { kind: 'status', status: 500 }, times: 3 }
		]);
		const failed = await h.play('I search the desk');
		expect(failed.status).toBe('failed');
		expect(failed).toMatchObject({ failureReason: 'provider_unavailable', error: null });
		expect(await counts(h)).toMatchObject({ journal: 0, log: 0 });
		// What was paid for is still accounted, marked as a failed turn's.
		const ledger = await h.use((s) => s.db.select().from(sessionSchema.ledger));
		expect(ledger.map((l) => l.outcome)).toEqual(['failed']);
		h.mock.script([
			{ toolCalls: [{ name: 'journal_append', arguments: { entry: 'Found a brass key.' } }] },
			{ text: 'A brass key glints in the drawer.' }
		]);
		const resent = await h.play('I search the desk');
		expect(resent.status).toBe('committed');
		expect(await counts(h)).toMatchObject({ journal: 1, log: 2 });
	});

	it('the same idempotency key twice runs one turn', async () => {
		h = await turnHarness(vendor);
		h.mock.script([{ text: 'Once.' }, { text: 'Twice?' }]);
		const a = await h.play('knock', 'key-000001');
		const b = await h.play('knock', 'key-000001');
		expect(b.id).toBe(a.id);
		expect(h.mock.requests).toHaveLength(1);
		expect((await h.turns()).length).toBe(1);
	});

	it('a resent turn counts once against the day, and gets its turn even when the quota is used up', async () => {
		h = await turnHarness(vendor, { KANTERA_FREE_TURNS_PER_DAY: '2' });
		const control = h.app.control.db;
		const usedToday = () => control.select({ turns: controlSchema.usageDaily.turns }).from(controlSchema.usageDaily);
		h.mock.script([{ text: 'Once.' }, { text: 'Again.' }]);
		const a = await h.play('knock', 'key-000002');
		const b = await h.play('knock', 'key-000002');
		expect(b.id).toBe(a.id);
		expect(await usedToday()).toEqual([{ turns: 1 }]);
		await h.play('knock again', 'key-000003');
		expect(await usedToday()).toEqual([{ turns: 2 }]);
		const c = await h.play('knock', 'key-000002');
		expect(c.id).toBe(a.id);
		expect(await usedToday()).toEqual([{ turns: 2 }]);
		expect(h.mock.requests).toHaveLength(2);
	});
});

describe('stage writes in a turn', () => {
	it('commits NPCs, cues and image orders with the turn; a failed turn leaves none', async () => {
		h = await turnHarness('openai');
		const stageCalls = [
			{ name: 'register_npc', arguments: { name: 'Bram', appearance: 'A tall guard with a scarred cheek and a green cloak.' } },
			{ name: 'adv_stage', arguments: { cues: [{ paragraph: 0, action: 'enter', character: 'Bram', slot: 'left' }] } }
		];
		h.mock.script([{ toolCalls: stageCalls }, { fault: { kind: 'status', status: 503 }, times: 3 }]);
		expect((await h.play('who guards the gate?')).status).toBe('failed');
		const empty = await h.use(async (s) => [
			(await s.db.select().from(sessionSchema.npcs)).length,
			(await s.db.select().from(sessionSchema.imageOrders)).length,
			(await s.db.select().from(sessionSchema.stageCues)).length
		]);
		expect(empty).toEqual([0, 0, 0]);
		h.mock.script([{ toolCalls: stageCalls }, { text: 'Bram steps forward.\n\nHe squints at you.' }]);
		const turn = await h.play('who guards the gate?');
		expect(turn.status).toBe('committed');
		const [orders, cues] = await h.use(
			async (s) => [await s.db.select().from(sessionSchema.imageOrders), await s.db.select().from(sessionSchema.stageCues)] as const
		);
		expect(orders).toHaveLength(1);
		// Started after the commit and finished by the (offline) image runner: the sprite is set.
		expect(orders[0]).toMatchObject({
			turnId: turn.id,
			target: 'npc',
			targetName: 'Bram',
			status: 'done',
			image: expect.stringMatching(/\.svg$/)
		});
		expect(await h.use((s) => stage.npcs.get(s.db, 'Bram'))).toMatchObject({ spriteImage: orders[0]?.image });
		expect(cues).toHaveLength(1);
		expect(cues[0]?.cue).toMatchObject({ action: 'enter', character: 'Bram', slot: 'left' });
	});
});

describe('stage directions while the reply streams', () => {
	it('sends each staged cue and place as an event before the reply text and the commit; the commit carries the choices', async () => {
		h = await turnHarness('openai');
		h.mock.script([
			{
				text: 'Steps on the stair.',
				toolCalls: [
					{ name: 'set_scene', arguments: { name: 'Cellar', description: 'A damp cellar room, barrels, one lamp.' } },
					{
						name: 'adv_stage',
						arguments: { cues: [{ paragraph: 1, action: 'enter', character: 'Bram', slot: 'left' }], choices: ['Hide', 'Call out'] }
					}
				]
			},
			{ text: '@Bram: Who is down here?' }
		]);
		const turn = await h.play('I listen');
		expect(turn.status).toBe('committed');
		expect(turn.reply).toBe('Steps on the stair.\n\n@Bram: Who is down here?');
		const events = (await h.use((s) => readEventsAfter(s.db, 0))).map((e) => e.event);
		const staged = events.flatMap((e) => (e.type === 'stage.staged' ? [e] : []));
		expect(staged).toEqual([
			{ type: 'stage.staged', turnId: turn.id, cues: [], places: [{ name: 'Cellar', kind: 'interior' }] },
			{ type: 'stage.staged', turnId: turn.id, cues: [{ paragraph: 1, action: 'enter', character: 'Bram', slot: 'left' }], places: [] }
		]);
		const types = events.map((e) => e.type);
		const lastStaged = types.lastIndexOf('stage.staged');
		// Staged before the text that follows the tool calls streams, and long before the commit.
		expect(types.slice(lastStaged + 1)).toContain('text.delta');
		// The streamed text has the reply's paragraph break between the two rounds, so live paragraph numbers match the cues.
		expect(events.flatMap((e) => (e.type === 'text.delta' ? [e.text] : [])).join('')).toBe(turn.reply);
		expect(events.find((e) => e.type === 'turn.committed')).toMatchObject({ choices: ['Hide', 'Call out'] });
		const offer = await h.use((s) => stage.choices.latest(s.db));
		expect(offer?.options).toEqual(['Hide', 'Call out']);
	});
});

describe('the opening in the first context', () => {
	it('gives the first turn the prologue the player read and the stage it left; later turns do not repeat it', async () => {
		h = await turnHarness('anthropic');
		await h.use((s) => s.write((tx) => writePrologue(tx, prologueSource(getWorld('sword-and-sorcery', 'en')))));
		h.mock.script([{ text: 'Sefa slams her palm on the table.' }, { text: 'Mirela sighs.' }]);
		await h.play('I look up from my wine.');
		const first = systemTextOf(h.mock.requests[0] ?? { openai: undefined, anthropic: undefined }) ?? '';
		expect(first).toMatch(
			/## Opening scene \(the player has just read this on screen; continue from it, do not retell it\)\n\nVesca is a walled port/
		);
		expect(first).toContain('[Stage now] Background: The Crooked Lantern. On stage: Mirela (left), Sefa (right).');
		await h.play('I ask what happened.');
		expect(systemTextOf(h.mock.requests[1] ?? { openai: undefined, anthropic: undefined })).not.toContain('## Opening scene');
	});

	it('tells the GM on every later turn where the stage stands after its own directions', async () => {
		h = await turnHarness('openai');
		await h.use((s) => s.write((tx) => writePrologue(tx, prologueSource(getWorld('sword-and-sorcery', 'en')))));
		h.mock.script([
			{
				text: 'Sefa storms out.',
				toolCalls: [{ name: 'adv_stage', arguments: { cues: [{ paragraph: 0, action: 'exit', character: 'Sefa' }] } }]
			},
			{ text: 'Mirela sighs.' },
			{ text: 'Mirela shrugs.' }
		]);
		await h.play('I look up from my wine.');
		await h.play('I ask what happened.');
		const second = systemTextOf(h.mock.requests[2] ?? { openai: undefined, anthropic: undefined }) ?? '';
		expect(second).not.toContain('## Opening scene');
		expect(second).toContain(
			'## Stage (what the player sees now; adv_stage and set_scene change it)\n\n[Stage now] Background: The Crooked Lantern. On stage: Mirela (left).'
		);
	});
});

describe('turn lifecycle', () => {
	it('a turn found running after a restart is marked interrupted and never sent to the LLM', async () => {
		h = await turnHarness('openai');
		const harness = h;
		const accepted = await h.use((s) =>
			acceptTurn(harness.app, s, { userId: harness.userId, text: 'I light the lamp', idempotencyKey: 'restart-01' })
		);
		// A runner in a process that then died: running, with a lease that has run out.
		await h.use((s) =>
			s.write((tx) =>
				tx
					.update(sessionSchema.turns)
					.set({ status: 'running', leaseOwner: 'dead-process', leaseExpiresAt: Date.now() - LEASE_MS })
					.where(eq(sessionSchema.turns.id, accepted.turnId))
			)
		);
		h.app.runner.kick(h.sessionId);
		await h.app.runner.idle();
		const [turn] = await h.turns();
		expect(turn?.status).toBe('interrupted');
		expect(h.mock.requests).toHaveLength(0);
		const events = await h.use((s) => readEventsAfter(s.db, 0));
		expect(events.map((e) => e.event.type)).toContain('turn.interrupted');
		// And the next turn can run.
		h.mock.script([{ text: 'The lamp flickers on.' }]);
		expect((await h.play('I light the lamp again')).status).toBe('committed');
	});

	it('accepts the player’s next turn while a checkpoint runs; it waits in the queue', async () => {
		h = await turnHarness('openai');
		const harness = h;
		await h.use((s) =>
			s.write((tx) =>
				tx.insert(sessionSchema.turns).values({
					id: 'cp000000000000000000',
					idempotencyKey: 'checkpoint:x',
					kind: 'checkpoint',
					userId: harness.userId,
					input: 'CHECKPOINT',
					status: 'running',
					leaseOwner: 'elsewhere',
					leaseExpiresAt: Date.now() + 60_000,
					createdAt: Date.now()
				})
			)
		);
		const accepted = await h.use((s) =>
			acceptTurn(harness.app, s, { userId: harness.userId, text: 'next', idempotencyKey: 'during-cp-1' })
		);
		expect(accepted).toMatchObject({ status: 'accepted', created: true });
		// The runner leaves it queued while the checkpoint holds its lease.
		h.app.runner.kick(h.sessionId);
		await h.app.runner.idle();
		expect(h.mock.requests).toHaveLength(0);
	});

	it('prunes finished turns’ streaming events after the retention period, keeping the final events', async () => {
		h = await turnHarness('openai');
		h.mock.script([{ text: 'A long, streamed reply about the harbour at night.' }, { text: 'Second reply.' }]);
		const first = await h.play('one');
		await h.play('two');
		const before = await h.use((s) => readEventsAfter(s.db, 0, 10_000));
		expect(before.some((e) => e.event.type === 'text.delta' && e.event.turnId === first.id)).toBe(true);
		const removed = await h.use((s) => s.write((tx) => pruneStreamingEvents(tx, finishedBeforeQuery(tx, (first.finishedAt ?? 0) + 1))));
		expect(removed).toBeGreaterThan(0);
		const after = await h.use((s) => readEventsAfter(s.db, 0, 10_000));
		expect(after.some((e) => e.event.type === 'text.delta' && e.event.turnId === first.id)).toBe(false);
		expect(after.some((e) => e.event.type === 'turn.committed' && e.event.turnId === first.id)).toBe(true);
		// The later turn finished after the cut-off and keeps its deltas.
		expect(after.some((e) => e.event.type === 'text.delta' && e.event.turnId !== first.id)).toBe(true);
	});

	it('rejects a second turn while one is pending', async () => {
		h = await turnHarness('openai');
		const harness = h;
		await h.use((s) => acceptTurn(harness.app, s, { userId: harness.userId, text: 'one', idempotencyKey: 'pending-01' }));
		await expect(
			h.use((s) => acceptTurn(harness.app, s, { userId: harness.userId, text: 'two', idempotencyKey: 'pending-02' }))
		).rejects.toMatchObject({ code: 'conflict' });
	});

	it('cancelling a running turn writes nothing', async () => {
		h = await turnHarness('openai');
		const harness = h;
		h.mock.script([
			{ toolCalls: [{ name: 'journal_append', arguments: { entry: 'never' } }] },
			{ fault: { kind: 'endless', send: 'delta', intervalMs: 20 } }
		]);
		const accepted = await h.use((s) => acceptTurn(harness.app, s, { userId: harness.userId, text: 'go', idempotencyKey: 'cancel-001' }));
		h.app.runner.kick(h.sessionId);
		// Wait until text is streaming (the tool call has been staged by then), then cancel.
		let streaming = false;
		for (let i = 0; i < 500 && !streaming; i++) {
			const evs = await h.use((s) => readEventsAfter(s.db, 0));
			streaming = evs.some((e) => e.event.type === 'text.delta');
			if (!streaming) await new Promise((r) => setTimeout(r, 10));
		}
		expect(streaming, 'the turn never streamed text').toBe(true);
		const [before] = await h.turns();
		expect(before?.status).toBe('running');
		expect(h.mock.requests).toHaveLength(2);
		await h.use((s) => harness.app.runner.cancel(s, accepted.turnId));
		await h.app.runner.idle();
		const [turn] = await h.turns();
		expect(turn?.status).toBe('cancelled');
		const types = (await h.use((s) => readEventsAfter(s.db, 0))).map((e) => e.event.type);
		expect(types.indexOf('turn.started')).toBeGreaterThan(-1);
		expect(types.indexOf('text.delta')).toBeGreaterThan(types.indexOf('turn.started'));
		expect(types.at(-1)).toBe('turn.cancelled');
		expect(types).not.toContain('turn.committed');
		expect(await counts(h)).toMatchObject({ journal: 0, log: 0 });
	});

	it('refuses the turn after the daily quota with the reset time', async () => {
		h = await turnHarness('openai', { KANTERA_FREE_TURNS_PER_DAY: '2' });
		h.mock.script([{ text: 'a' }, { text: 'b' }]);
		await h.play('1');
		await h.play('2');
		await expect(h.play('3')).rejects.toMatchObject({ code: 'quota_exceeded', resetsAt: expect.any(Date) });
	});

	it('mission text is byte-identical at the head of every request', async () => {
		h = await turnHarness('anthropic');
		h.mock.script([{ text: 'one' }, { toolCalls: [{ name: 'roll_dice', arguments: { notation: '1d20' } }] }, { text: 'two' }]);
		await h.play('first');
		await h.play('second');
		expect(h.mock.requests).toHaveLength(3);
		for (const r of h.mock.requests) expect(systemTextOf(r)?.startsWith(h.mission)).toBe(true);
	});
});
