/**
 * A player turn's commit as one write batch (turn/staging.ts `commitBatch`, turn/commit-batch.ts): the
 * records it writes are exactly those the interactive commit writes, and when a record changed after
 * the turn's writes were staged, the batch's guard aborts it (nothing written) and the interactive
 * commit replays the writes on the changed records instead.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { turnHarness, type TurnHarness } from '../../helpers/turns';
import { DUMP_EXCLUDED, dumpSession, type Dump } from '../../helpers/dump';
import { sessionSchema } from '../../../src/lib/server/db';
import { journal } from '../../../src/lib/server/records';
import { Staging } from '../../../src/lib/server/turn/staging';
import type { ScriptedReply } from '../../mock-llm';
import type { Client } from '@libsql/client';

let harnesses: TurnHarness[] = [];
afterEach(async () => {
	vi.restoreAllMocks();
	for (const h of harnesses) await h.cleanup();
	harnesses = [];
});

async function harness(): Promise<TurnHarness> {
	const h = await turnHarness('openai');
	harnesses.push(h);
	return h;
}

/** Two turns writing records of most kinds (the image orders' runner is left out: its timing is its own). */
const TURNS: ScriptedReply[][] = [
	[
		{
			toolCalls: [
				{ name: 'update_state', arguments: { patch: { location: 'North Gate', hp: 10, inventory: ['lantern'] } } },
				{ name: 'journal_append', arguments: { entry: 'Day 1: the party reached the North Gate.' } },
				{ name: 'memory', arguments: { action: 'create', name: 'Bram', body: 'Gate guard. Owes the PC a favour.' } },
				{ name: 'story_begin', arguments: { type: 'quest', key: 'find-seal', title: 'Find the seal', body: 'Bram asks for help.' } },
				{
					name: 'adv_stage',
					arguments: { cues: [{ paragraph: 1, action: 'enter', character: 'Bram', slot: 'left' }], choices: ['Ask', 'Walk on'] }
				}
			]
		},
		{ text: 'Snow falls on the gate.\n\n@Bram: A word, traveller.' }
	],
	[
		{
			toolCalls: [
				{ name: 'update_state', arguments: { patch: { location: 'Cellar', hp: 7 } } },
				{ name: 'memory', arguments: { action: 'edit', name: 'Bram', body: 'Gate guard. Paid back his favour.' } },
				{ name: 'journal_append', arguments: { entry: 'Night: the cellar.' } }
			]
		},
		{ text: 'The cellar smells of wine.' }
	],
	// A turn with no staged write.
	[{ text: 'You wait. Nothing happens.' }]
];

/**
 * Plays TURNS, running `beforeReply` (in the session) while the GM writes each turn's last reply: after
 * the turn's writes were staged, before its commit.
 */
async function play(h: TurnHarness, beforeReply?: (client: Client, turn: number) => Promise<void>): Promise<void> {
	for (const [i, replies] of TURNS.entries()) {
		const queue = [...replies];
		h.mock.setHandler(async () => {
			const reply = queue.shift() ?? { text: '' };
			if (queue.length === 0 && beforeReply) await h.use((s) => beforeReply(s.client, i));
			return reply;
		});
		expect((await h.play(`Line ${i + 1}`)).status).toBe('committed');
	}
	h.mock.setHandler(undefined);
}

/** The session's records with what differs between two sessions by nature (turn ids, times) put in order. */
async function records(h: TurnHarness): Promise<Dump> {
	const turnIds = (await h.turns()).map((t) => t.id);
	// The turn rows carry each session's own keys and users: compared column by column below.
	const dump = await h.use((s) => dumpSession(s.client, { excluded: new Set([...DUMP_EXCLUDED, 'turns']) }));
	const normal = (cell: unknown): unknown => {
		if (typeof cell === 'number' && cell > 1e12 && cell < 1e14) return 'time';
		if (typeof cell !== 'string') return cell;
		let text = cell;
		turnIds.forEach((id, i) => (text = text.replaceAll(id, `turn#${i}`)));
		return text.replace(/\d{13}/g, 'time');
	};
	return Object.fromEntries(Object.entries(dump).map(([table, rows]) => [table, rows.map((row) => row.map(normal))]));
}

const revisionBump = async (client: Client) => {
	await client.execute('UPDATE record_revision SET n = n + 1');
};

describe('a player turn committed as one write batch', () => {
	it('writes exactly the records the interactive commit writes, and only falls back when a record changed', async () => {
		const interactive = vi.spyOn(Staging.prototype, 'commit');
		const batched = await harness();
		await play(batched);
		// Every player turn went as a batch: the interactive commit never ran.
		expect(interactive).not.toHaveBeenCalled();

		// The counter moved under every turn (as a concurrent record write moves it): each turn read its
		// commit base with what it started from, before the move, so each commit falls back.
		const replayed = await harness();
		await play(replayed, revisionBump);
		expect(interactive).toHaveBeenCalledTimes(3);

		expect(await records(batched)).toEqual(await records(replayed));
		const [a, b] = await Promise.all([batched.turns(), replayed.turns()]);
		expect(a.map((t) => [t.status, t.seq, t.reply, t.tokens])).toEqual(b.map((t) => [t.status, t.seq, t.reply, t.tokens]));
		// The undo log holds the same rows for each turn either way.
		const undoRows = (h: TurnHarness) =>
			h.use(async (s) => {
				const ids = (await h.turns()).map((t) => t.id);
				const rows = await s.db
					.select()
					.from(sessionSchema.undoLog)
					.orderBy(asc(sessionSchema.undoLog.tbl), asc(sessionSchema.undoLog.rowId));
				return rows.map((r) => [ids.indexOf(r.turnId), r.tbl, r.rowId, r.before?.replace(/\d{13}/g, 'time')]);
			});
		expect(await undoRows(batched)).toEqual(await undoRows(replayed));
		expect((await undoRows(batched)).length).toBeGreaterThan(0);
	});

	it('keeps records written while the turn ran, and the turn writes on top of them', async () => {
		const h = await harness();
		// After the GM staged its writes: the player's own journal entry (first turn), and a change to the
		// state the second turn's staged patch merged into (its recorded statement holds the old document).
		await play(h, async (client, turn) => {
			if (turn === 0)
				await client.execute({ sql: 'INSERT INTO journal (body, created_at) VALUES (?, ?)', args: ['Player note.', Date.now()] });
			if (turn === 1) await client.execute("UPDATE state SET doc = json_set(doc, '$.gold', 5)");
		});
		const bodies = await h.use(async (s) => (await journal.recent(s.db, 10)).map((e) => e.body).sort());
		expect(bodies).toEqual(['Day 1: the party reached the North Gate.', 'Night: the cellar.', 'Player note.']);
		const [state] = await h.use((s) => s.db.select({ doc: sessionSchema.state.doc }).from(sessionSchema.state));
		expect(state?.doc).toEqual({ location: 'Cellar', hp: 7, inventory: ['lantern'], gold: 5 });
		const log = await h.use((s) => s.db.select().from(sessionSchema.logMessages).orderBy(asc(sessionSchema.logMessages.id)));
		expect(log.map((m) => m.role)).toEqual(['player', 'gm', 'player', 'gm', 'player', 'gm']);
		// The cues are keyed by the GM message that carries them.
		const cues = await h.use((s) => s.db.select().from(sessionSchema.stageCues));
		expect(cues.map((c) => c.messageId)).toEqual([log[1]?.id]);
		const committed = await h.use((s) =>
			s.db.select({ data: sessionSchema.events.data }).from(sessionSchema.events).where(eq(sessionSchema.events.type, 'turn.committed'))
		);
		const messageIds = (data: string): unknown => {
			const event: unknown = JSON.parse(data);
			return typeof event === 'object' && event !== null && 'messageIds' in event ? event.messageIds : undefined;
		};
		expect(committed.map((e) => messageIds(e.data))).toEqual([
			[log[0]?.id, log[1]?.id],
			[log[2]?.id, log[3]?.id],
			[log[4]?.id, log[5]?.id]
		]);
	});

	it("does not fall back for the image runner's background writes, and does for a job it claims", async () => {
		const interactive = vi.spyOn(Staging.prototype, 'commit');
		const h = await harness();
		const now = Date.now();
		// A committed order being generated, one waiting, and the character whose sprite they draw.
		await h.use(async (s) => {
			await s.client.batch(
				[
					{
						sql: 'INSERT INTO npcs (name, appearance, created_at, updated_at) VALUES (?, ?, ?, ?)',
						args: ['Bram', 'grey beard', now, now]
					},
					{
						sql: `INSERT INTO image_orders (id, turn_id, target, target_name, prompt, status, attempts, lease_owner, lease_expires_at, created_at, updated_at)
							VALUES (1, 'earlier', 'npc', 'Bram', 'p', 'running', 1, 'images', ?, ?, ?), (2, 'earlier', 'scene', 'Gate', 'p', 'pending', 0, NULL, NULL, ?, ?)`,
						args: [now + 60_000, now, now, now, now]
					}
				],
				'write'
			);
		});
		const turn = async (during: (client: Client) => Promise<void>) => {
			const queue: ScriptedReply[] = [
				{ toolCalls: [{ name: 'journal_append', arguments: { entry: 'Bram nods.' } }] },
				{ text: 'He nods.' }
			];
			h.mock.setHandler(async () => {
				const reply = queue.shift() ?? { text: '' };
				if (queue.length === 0) await h.use((s) => during(s.client));
				return reply;
			});
			expect((await h.play('Wait.')).status).toBe('committed');
		};
		// While the turn runs, the job's lease is renewed, its image stored, the job finished and the sprite set.
		await turn(async (client) => {
			await client.execute({ sql: 'UPDATE image_orders SET lease_expires_at = ? WHERE id = 1', args: [now + 120_000] });
			await client.execute("UPDATE image_orders SET image = 'k1' WHERE id = 1");
			await client.execute("UPDATE image_orders SET status = 'done', lease_owner = NULL, lease_expires_at = NULL WHERE id = 1");
			await client.execute({ sql: "UPDATE npcs SET sprite_image = 'k1', updated_at = ? WHERE name = 'Bram'", args: [Date.now()] });
		});
		expect(interactive).not.toHaveBeenCalled();
		// A waiting job claimed (a pending order a staged write could have replaced) moves the counter: the commit falls back.
		await turn(async (client) => {
			await client.execute("UPDATE image_orders SET status = 'running', lease_owner = 'images' WHERE id = 2");
		});
		expect(interactive).toHaveBeenCalledTimes(1);
		expect((await h.turns()).map((t) => t.status)).toEqual(['committed', 'committed']);
	});
});
