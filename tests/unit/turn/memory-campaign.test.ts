import { describe, it, expect, afterEach } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { turnHarness, type TurnHarness, type Vendor } from '../../helpers/turns';
import { tempDir } from '../../helpers/env';
import { lastTurn, systemTextOf, type RecordedRequest, type ScriptedReply } from '../../mock-llm';
import { sessionSchema } from '../../../src/lib/server/db';
import { journal, summaries } from '../../../src/lib/server/records';
import { readEventsAfter } from '../../../src/lib/server/events';
import { estimateTokens } from '../../../src/lib/server/context-window';

let h: TurnHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

/**
 * The counter the app falls back to where the provider reports no usage: one token per character. The
 * scripted replies below report their own output tokens, deliberately not their length, so a count that
 * came from this counter instead would show.
 */
const chars = (t: string) => t.length;

/** What the scripted GM reports as the output tokens of a reply: one per character, like `chars`, so the sizes below read easily. */
const reported = (text: string) => ({ inputTokens: 1_000, outputTokens: text.length });

/** Stored tokens of an exchange whose reply reported `output` tokens: the player's line is estimated. */
const exchange = (input: string, output: number) => estimateTokens(input) + output;

/** Every user-role text of a request, in order (player lines and the operator's checkpoint message). */
function userTexts(r: RecordedRequest): string[] {
	if (r.openai) return r.openai.messages.flatMap((m) => (m.role === 'user' && typeof m.content === 'string' ? [m.content] : []));
	if (r.anthropic)
		return r.anthropic.messages.flatMap((m) =>
			m.role !== 'user' ? [] : typeof m.content === 'string' ? [m.content] : m.content.flatMap((b) => (b.type === 'text' ? [b.text] : []))
		);
	return [];
}

/** Every assistant-role text of a request, in order (the GM's earlier replies in the window). */
function assistantTexts(r: RecordedRequest): string[] {
	if (r.openai) return r.openai.messages.flatMap((m) => (m.role === 'assistant' && typeof m.content === 'string' ? [m.content] : []));
	if (r.anthropic)
		return r.anthropic.messages.flatMap((m) =>
			m.role !== 'assistant'
				? []
				: typeof m.content === 'string'
					? [m.content]
					: m.content.flatMap((b) => (b.type === 'text' ? [b.text] : []))
		);
	return [];
}

/** What the engine answered each tool call of the turn (OpenAI wire): the tool messages of the turn's last request. */
function toolResults(r: RecordedRequest | undefined): string[] {
	return r?.openai?.messages.flatMap((m) => (m.role === 'tool' ? [m.content] : [])) ?? [];
}

/**
 * A faithful scripted GM: narrates player lines; at a checkpoint writes a summary that carries the
 * previous summary forward and lists every player line it was shown. Only what the harness puts in
 * the request can reach the summary, which is what these tests check.
 */
function gm(r: RecordedRequest): ScriptedReply {
	const last = lastTurn(r);
	const text = last.kind === 'user' ? last.text : '';
	if (text.startsWith('[OPERATOR')) {
		// The previous summary heads the records in the system text (it is not repeated in the instruction).
		const previous = /## Latest hand-off summary\n([\s\S]*?)\n\n## Documents/.exec(systemTextOf(r) ?? '')?.[1] ?? '';
		const lines = userTexts(r).filter((t) => !t.startsWith('[OPERATOR'));
		const summary = `## Current scene\n${lines.map((l) => `- ${l}`).join('\n')}\n## Earlier\n${previous}`;
		return { text: summary, usage: reported(summary) };
	}
	const reply = `GM: ${text.slice(0, 20)}`;
	return { text: reply, usage: reported(reply) };
}

const checkpoints = async (h: TurnHarness) => (await h.turns()).filter((t) => t.kind === 'checkpoint' && t.status === 'committed');

describe.each<Vendor>(['openai', 'anthropic'])('pinned mission over a long campaign (%s)', (vendor) => {
	it('40 exchanges, several checkpoints: the mission heads every request byte for byte; summaries carry old facts', async () => {
		h = await turnHarness(vendor, { KANTERA_WINDOW_EXCHANGES: '3', KANTERA_CHECKPOINT_TOKENS: '300' }, { countTokens: chars });
		h.mock.setHandler(gm);
		await h.play('I pocket the brass key from the desk');
		for (let i = 2; i <= 40; i++) await h.play(`exchange number ${i} happens here`);
		const cps = await checkpoints(h);
		expect(cps.length).toBeGreaterThan(1);
		for (const r of h.mock.requests) expect(systemTextOf(r)?.startsWith(h.mission), `request ${r.seq}`).toBe(true);
		// The window holds at most 3 exchanges (6 messages) plus the input, across checkpoints too.
		const playerRequests = h.mock.requests.filter((r) => !userTexts(r).some((t) => t.startsWith('[OPERATOR')));
		for (const r of playerRequests) expect(userTexts(r).length).toBeLessThanOrEqual(4);
		// After a checkpoint the window does not restart empty: every player request past the first has history.
		for (const r of playerRequests.slice(1)) expect(userTexts(r).length, `request ${r.seq}`).toBeGreaterThan(1);
		// A checkpoint request carries only the exchanges since the previous checkpoint: the carried ones are in its summary.
		const checkpointRequests = h.mock.requests.filter((r) => userTexts(r).some((t) => t.startsWith('[OPERATOR')));
		for (const [i, r] of checkpointRequests.entries()) {
			if (i === 0) continue;
			const previous = checkpointRequests[i - 1];
			const before = new Set(previous ? userTexts(previous) : []);
			expect(
				userTexts(r).filter((t) => !t.startsWith('[OPERATOR') && before.has(t)),
				`checkpoint request ${r.seq}`
			).toEqual([]);
		}
		// Exchange 1 left the window long ago; the summary still puts it in every later context.
		const lastRequest = h.mock.requests.at(-1);
		expect(lastRequest && userTexts(lastRequest).some((t) => t.includes('brass key'))).toBe(false);
		expect(lastRequest && systemTextOf(lastRequest)).toContain('I pocket the brass key from the desk');
		// The first summary's content survives every later checkpoint.
		const all = await h.use((s) => summaries.list(s.db));
		expect(all.length).toBe(cps.length);
		expect(all.at(-1)?.body).toContain('brass key');
	});
});

describe('checkpoint threshold', () => {
	// 'abcdef' is estimated at 2 tokens: with 18 reported for the reply the exchange is exactly 20.
	const reply = 'GM: a long reply about the cellar, far longer than the tokens it reports.';

	it('history exactly at the threshold: no checkpoint, whatever the reply counts in characters', async () => {
		h = await turnHarness('openai', { KANTERA_CHECKPOINT_TOKENS: '20' }, { countTokens: chars });
		h.mock.script([{ text: reply, usage: { inputTokens: 500, outputTokens: 18 } }]);
		expect(exchange('abcdef', 18)).toBe(20);
		expect(chars('abcdef') + chars(reply)).toBeGreaterThan(20);
		const turn = await h.play('abcdef');
		expect((await h.turns()).find((t) => t.id === turn.id)?.tokens).toBe(20);
		expect(await checkpoints(h)).toHaveLength(0);
		expect(h.mock.requests).toHaveLength(1);
	});

	it('one token over: exactly one checkpoint, and the next context starts from its summary and the last exchange', async () => {
		h = await turnHarness('openai', { KANTERA_CHECKPOINT_TOKENS: '20' }, { countTokens: chars });
		h.mock.script([
			{ text: reply, usage: { inputTokens: 500, outputTokens: 19 } },
			{ text: '## Current scene\nThe cellar, candle lit.' },
			{ text: 'GM: onward', usage: { inputTokens: 500, outputTokens: 1 } }
		]);
		await h.play('abcdef');
		expect(await checkpoints(h)).toHaveLength(1);
		const summary = await h.use((s) => summaries.latest(s.db));
		expect(summary?.body).toBe('## Current scene\nThe cellar, candle lit.');
		// The checkpoint was an operator message, not a player line, and is not in the play log.
		const cpRequest = h.mock.requests[1];
		expect(cpRequest && userTexts(cpRequest).at(-1)).toMatch(/^\[OPERATOR — CHECKPOINT/);
		await h.play('next');
		const next = h.mock.requests[2];
		expect(next && systemTextOf(next)).toContain('The cellar, candle lit.');
		// The exchange from before the checkpoint is still there, verbatim; the summary replaced nothing of it.
		expect(next && userTexts(next)).toEqual(['abcdef', 'next']);
		// The carried exchange does not count again: still one checkpoint.
		expect(await checkpoints(h)).toHaveLength(1);
	});

	it('without usable usage the counter measures the exchange: zeros reported count as none', async () => {
		h = await turnHarness('openai', { KANTERA_CHECKPOINT_TOKENS: '20' }, { countTokens: chars });
		h.mock.script([{ text: 'GM: abcdefghijk', usage: { inputTokens: 0, outputTokens: 0 } }, { text: '## Current scene\nThe cellar.' }]);
		const turn = await h.play('abcdef'); // 6 + 15 characters = 21
		expect((await h.turns()).find((t) => t.id === turn.id)?.tokens).toBe(21);
		expect(await checkpoints(h)).toHaveLength(1);
	});

	it('a round that called tools is counted, not taken from its output tokens (they hold the arguments)', async () => {
		h = await turnHarness('openai', { KANTERA_CHECKPOINT_TOKENS: '1000' }, { countTokens: chars });
		h.mock.script([
			{
				text: 'One moment.',
				toolCalls: [{ name: 'journal_append', arguments: { entry: 'x' } }],
				usage: { inputTokens: 500, outputTokens: 400 }
			},
			{ text: 'GM: done.', usage: { inputTokens: 600, outputTokens: 3 } }
		]);
		const turn = await h.play('abcdef');
		expect(toolResults(h.mock.requests.at(-1))).toEqual(['Journal entry #1 recorded.']);
		expect((await h.turns()).find((t) => t.id === turn.id)?.tokens).toBe(exchange('abcdef', chars('One moment.') + 3));
	});

	it('the exchange just before a checkpoint is in the next request; older ones are not', async () => {
		// About 30 tokens an exchange (the line estimated, the reply's reported tokens): the third one passes 80.
		h = await turnHarness('openai', { KANTERA_WINDOW_EXCHANGES: '8', KANTERA_CHECKPOINT_TOKENS: '80' }, { countTokens: chars });
		h.mock.setHandler(gm);
		const lines = [
			'I light the lantern',
			'I open the cellar door',
			'I walk down the stairs',
			'I call out to Bram',
			'I listen for an answer'
		];
		for (const line of lines) await h.play(line);
		const cps = await checkpoints(h);
		expect(cps.length).toBeGreaterThanOrEqual(1);
		// Find the first checkpoint request and the player request right after it.
		const cpIndex = h.mock.requests.findIndex((r) => userTexts(r).some((t) => t.startsWith('[OPERATOR')));
		const cpRequest = h.mock.requests[cpIndex];
		const afterIndex = h.mock.requests.findIndex((r, i) => i > cpIndex && !userTexts(r).some((t) => t.startsWith('[OPERATOR')));
		const after = h.mock.requests[afterIndex];
		expect(cpRequest && after).toBeTruthy();
		if (!cpRequest || !after) return;
		const shown = userTexts(cpRequest).filter((t) => !t.startsWith('[OPERATOR'));
		const lastBefore = shown.at(-1) ?? '';
		// The player's last line and the GM's reply to it, both verbatim, right before the new input.
		const users = userTexts(after);
		expect(users.at(-2)).toBe(lastBefore);
		expect(assistantTexts(after).at(-1)).toBe(`GM: ${lastBefore.slice(0, 20)}`);
		// At most the carry budget of them (2 exchanges), never the whole history the summary replaced.
		expect(users.length).toBeLessThanOrEqual(3);
		expect(shown.length).toBeGreaterThan(2);
		expect(users).not.toContain(shown[0]);
		expect(systemTextOf(after)).toContain('## Current scene');
	});
});

describe('budget guard in a turn (seed 002)', () => {
	it('limit 50, warning 40, calls of 9: warns once after the fifth, stops before the seventh, keeps the six', async () => {
		const d = tempDir();
		const prices = path.join(d.dir, 'prices.json');
		// 9 dollars per million input tokens: one input token costs exactly 9 micro-dollars.
		writeFileSync(prices, JSON.stringify({ 'mock-model': { input: 9, output: 0 } }));
		h = await turnHarness('openai', {
			KANTERA_PRICES_FILE: prices,
			KANTERA_BUDGET_TURN_USD: '0.00005',
			KANTERA_BUDGET_TURN_WARN_USD: '0.00004',
			KANTERA_MAX_TOOL_ROUNDS: '20'
		});
		h.mock.script(
			Array.from({ length: 7 }, (_, i) => ({
				text: `step ${i + 1}. `,
				toolCalls: [{ name: 'journal_append', arguments: { entry: `result ${i + 1}` } }],
				usage: { inputTokens: 1, outputTokens: 0 }
			}))
		);
		const turn = await h.play('do seven things');
		expect(h.mock.requests).toHaveLength(6);
		// Every call ran: no tool error on the way (the sixth call's result was never sent back, the budget stopped the turn first).
		expect(toolResults(h.mock.requests.at(-1))).toEqual([1, 2, 3, 4, 5].map((n) => `Journal entry #${n} recorded.`));
		expect(turn.status).toBe('committed');
		expect(turn.stopped).toBe('budget:turn');
		const [entries, ledger, events] = await h.use(
			async (s) =>
				[
					await journal.recent(s.db, 100),
					await s.db.select().from(sessionSchema.ledger).where(eq(sessionSchema.ledger.turnId, turn.id)),
					await readEventsAfter(s.db, 0)
				] as const
		);
		expect(entries.map((e) => e.body)).toEqual(['result 1', 'result 2', 'result 3', 'result 4', 'result 5', 'result 6']);
		expect(ledger.reduce((sum, l) => sum + l.costMicros, 0)).toBe(54);
		const warnings = events.filter((e) => e.event.type === 'budget.warning');
		expect(warnings).toHaveLength(1);
		// The amounts travel with it, for a screen to word it in its reader's language.
		expect(warnings[0]?.event).toMatchObject({ scope: 'turn', unit: 'micros', spent: 45, warnAt: 40, limit: 50 });
		// The warning came after the fifth call's delta and before the sixth's.
		const idx = (pred: (t: string) => boolean) => events.findIndex((e) => e.event.type === 'text.delta' && pred(e.event.text));
		const warnPos = warnings[0] ? events.indexOf(warnings[0]) : -1;
		expect(warnPos).toBeGreaterThan(idx((t) => t.includes('step 5')));
		expect(warnPos).toBeLessThan(idx((t) => t.includes('step 6')));
		expect(turn.reply).toContain('step 6.');
		d.remove();
	});
});
