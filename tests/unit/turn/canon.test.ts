/**
 * The canon guard in a real turn (issue 27): a scripted GM that gives away a secret's marker, or names
 * something the world does not have — mid-stream across a chunk boundary, in both languages, in a
 * choice, a stage name or an image prompt — has the reply withdrawn, is asked once to write it again,
 * and only the rewrite is recorded; a second hit ends the turn with nothing recorded. The term never
 * reaches the event log, the play log, the search index or any other record.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { asc } from 'drizzle-orm';
import { turnHarness, type TurnHarness } from '../../helpers/turns';
import { dumpSession } from '../../helpers/dump';
import { controlSchema, sessionSchema } from '../../../src/lib/server/db';
import { scrapeMetrics } from '../../../src/lib/server/ops';
import { sessionSpend } from '../../../src/lib/server/usage';
import { parseExposition } from '../../helpers/metrics';
import { eq } from 'drizzle-orm';
import { story } from '../../../src/lib/server/records';
import { writeCanonQuery } from '../../../src/lib/server/canon';
import type { CanonSource } from '../../../src/lib/canon';
import type { Language } from '../../../src/lib/types/settings';
import type { ScriptedReply } from '../../mock-llm';

const CANON: CanonSource = {
	secrets: [
		{ key: 'haig-order', markers: ['sealed order', '封緘命令'] },
		{ key: 'mole', markers: ['Captain Voss'] }
	],
	anachronisms: [
		{ terms: ['smartphone', 'mobile phone', 'スマートフォン'], note: 'Telephones are wall boxes on a wire.' },
		{ terms: ['jet aircraft'], note: 'Aircraft are wood and fabric.' }
	]
};

let harnesses: TurnHarness[] = [];
afterEach(async () => {
	for (const h of harnesses) await h.cleanup();
	harnesses = [];
});

async function harness(language: Language = 'en'): Promise<TurnHarness> {
	const h = await turnHarness('openai', {}, { language });
	harnesses.push(h);
	await h.use(async (s) => {
		await writeCanonQuery(s.db, CANON);
		await s.write((tx) => story.addTruth(tx, { key: 'haig-order', body: 'Haig carries orders to abandon the hill.' }));
	});
	return h;
}

/** Plays one turn on these replies; the replies left unserved must be none. */
async function play(h: TurnHarness, line: string, replies: ScriptedReply[]) {
	h.mock.reset();
	h.mock.script(replies);
	const turn = await h.play(line);
	expect(h.mock.pending()).toBe(0);
	return turn;
}

/** Every record of the session but its canon (which holds the terms by design) and the story DB's own truth, as text. */
async function recordsText(h: TurnHarness): Promise<string> {
	const dump = await h.use((s) => dumpSession(s.client, { excluded: new Set(['meta', 'sqlite_sequence', '__kantera_migrations']) }));
	return JSON.stringify(dump).toLowerCase();
}

async function eventTypes(h: TurnHarness): Promise<string[]> {
	const rows = await h.use((s) =>
		s.db.select({ type: sessionSchema.events.type }).from(sessionSchema.events).orderBy(asc(sessionSchema.events.id))
	);
	return rows.map((r) => r.type);
}

/** The text of the messages of the i-th request (0-based) the GM received. */
const requestText = (h: TurnHarness, i: number) => JSON.stringify(h.mock.requests[i]?.body ?? null);

/** The session's counters of what the guard did (control database), and the process's metrics of it. */
async function guardCounts(h: TurnHarness) {
	const [row] = await h.app.control.db
		.select({ rewrites: controlSchema.usageSession.canonRewrites, stopped: controlSchema.usageSession.canonStopped })
		.from(controlSchema.usageSession)
		.where(eq(controlSchema.usageSession.sessionId, h.sessionId));
	const metrics = parseExposition(await scrapeMetrics({ control: h.app.control.db, turns: h.app.runner, images: h.app.images }));
	return {
		session: row ?? { rewrites: 0, stopped: 0 },
		metrics: {
			rewrites: metrics.get('kantera_canon_rewrites_total{}') ?? 0,
			stopped: metrics.get('kantera_canon_stopped_turns_total{}') ?? 0
		}
	};
}

describe('the canon guard on the GM’s words', () => {
	it('withdraws a reply that spells a secret marker across deltas, asks once for a rewrite, and commits only the rewrite', async () => {
		const h = await harness();
		const before = await guardCounts(h);
		const turn = await play(h, 'I ask Haig what he carries.', [
			{ text: ['Haig pats his coat. "The se', 'aled or', 'der stays with me."'] },
			{ text: 'Haig pats his coat and says nothing.' }
		]);
		expect(turn.status).toBe('committed');
		// Counted for the session (the owner's spend panel, /admin/usage) and in the metrics.
		const after = await guardCounts(h);
		expect(after.session).toEqual({ rewrites: 1, stopped: 0 });
		expect([after.metrics.rewrites - before.metrics.rewrites, after.metrics.stopped - before.metrics.stopped]).toEqual([1, 0]);
		expect(turn.reply).toBe('Haig pats his coat and says nothing.');
		expect(h.mock.requests).toHaveLength(2);
		// The GM is told which term and why, by the secret's key — never its text.
		const note = requestText(h, 1);
		expect(note).toContain('withdrawn before the player saw it');
		expect(note).toContain('haig-order');
		expect(note).not.toContain('abandon the hill');
		expect(await eventTypes(h)).toContain('text.withdrawn');
		expect(await recordsText(h)).not.toContain('sealed');
	});

	it('stops the turn on a second hit, recording nothing of it', async () => {
		const h = await harness();
		const turn = await play(h, 'I ask Haig what he carries.', [
			{ text: 'The sealed order, he says.' },
			{ text: 'He shows you the sealed order.' }
		]);
		expect(turn.status).toBe('failed');
		expect(turn.failureReason).toBe('withheld');
		expect((await guardCounts(h)).session).toEqual({ rewrites: 1, stopped: 1 });
		// The owner reads it in the session's spend panel.
		const owner = { id: h.userId, name: 'player', isAdmin: false, tier: 'free' as const };
		expect((await h.use((s) => sessionSpend(h.app, s, owner))).canon).toEqual({ rewrites: 1, stopped: 1 });
		expect(await recordsText(h)).not.toContain('sealed');
		const logged = await h.use((s) => s.db.select().from(sessionSchema.logMessages));
		expect(logged).toEqual([]);
	});

	it('catches Japanese markers and width variants across deltas', async () => {
		const h = await harness('ja');
		const turn = await play(h, 'ヘイグに尋ねる。', [
			{ text: ['ヘイグは封', '緘命令を懐にしまった。'] },
			{ text: 'ヘイグは黙って外套を叩いた。' }
		]);
		expect(turn.reply).toBe('ヘイグは黙って外套を叩いた。');
		const h2 = await harness('ja');
		const second = await play(h2, '電話はある？', [{ text: 'ｽﾏｰﾄﾌｫﾝを取り出す。' }, { text: '誰も知らない言葉だ。' }]);
		expect(second.reply).toBe('誰も知らない言葉だ。');
		expect(await recordsText(h)).not.toContain('封緘');
		expect(await recordsText(h2)).not.toMatch(/ｽﾏｰﾄ|スマート/);
	});

	it('refuses a choice, a stage name or an image prompt that would show a term, before the tool runs', async () => {
		const h = await harness();
		const turn = await play(h, 'Look around.', [
			{ toolCalls: [{ name: 'adv_stage', arguments: { cues: [], choices: ['Call on your smartphone', 'Wait'] } }] },
			{ toolCalls: [{ name: 'register_npc', arguments: { name: 'Captain Voss', appearance: 'A tall officer.' } }] }
		]);
		// The second refusal in a turn stops it, as a second withdrawn reply does.
		expect(turn.status).toBe('failed');
		expect(turn.failureReason).toBe('withheld');
		expect(await recordsText(h)).not.toMatch(/smartphone|voss/);

		const ok = await play(h, 'Look around.', [
			{ toolCalls: [{ name: 'set_scene', arguments: { name: 'Airfield', description: 'A jet aircraft on the grass.' } }] },
			{ toolCalls: [{ name: 'set_scene', arguments: { name: 'Airfield', description: 'A biplane of wood and fabric on the grass.' } }] },
			{ text: 'Wind over the field.' }
		]);
		expect(ok.status).toBe('committed');
		expect(requestText(h, 1)).toContain('not done, nothing was shown');
		expect(await recordsText(h)).not.toContain('jet aircraft');
		const orders = await h.use((s) => s.db.select({ prompt: sessionSchema.imageOrders.prompt }).from(sessionSchema.imageOrders));
		expect(orders.map((o) => o.prompt).join(' ')).toContain('biplane');
	});

	it('tells the GM when the player names something the world lacks, and lets the GM say the player’s word back', async () => {
		const h = await harness();
		const turn = await play(h, 'I pull out my smartphone.', [{ text: 'Your hand finds no smartphone, only a cold tin of matches.' }]);
		expect(turn.status).toBe('committed');
		expect(h.mock.requests).toHaveLength(1);
		const request = requestText(h, 0);
		expect(request).toContain('Canon note for this turn');
		expect(request).toContain('Do not refuse');
	});

	it('lets the GM say a secret once it revealed it with story_advance', async () => {
		const h = await harness();
		const turn = await play(h, 'I open Haig’s coat.', [
			{ toolCalls: [{ name: 'story_advance', arguments: { action: 'reveal', key: 'haig-order' } }] },
			{ text: 'Inside lies the sealed order.' }
		]);
		expect(turn.status).toBe('committed');
		expect(turn.reply).toBe('Inside lies the sealed order.');
		// And from then on, in later turns too.
		const next = await play(h, 'I read it.', [{ text: 'The sealed order is short.' }]);
		expect(next.reply).toBe('The sealed order is short.');
	});
});
