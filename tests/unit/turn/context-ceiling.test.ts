import { describe, it, expect, afterEach } from 'vitest';
import * as v from 'valibot';
import { turnHarness, type TurnHarness } from '../../helpers/turns';
import { lastTurn, type RecordedRequest, type ScriptedReply } from '../../mock-llm';
import { countTokensO200k } from '../../../src/lib/server/context-window';
import { ConfigError, parseConfig } from '../../../src/lib/server/config';
import { createApp } from '../../../src/lib/server/app';
import { tempDir } from '../../helpers/env';

let h: TurnHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

const FACT = "The ferryman's daughter pushes back her hood and says her name is Liesl Varro.";
const ASK = "ferryman's daughter name";
const TURNS = 30;
/** Turns played in Japanese: about twice the tokens for the same story. */
const JAPANESE = new Set([11, 12, 13, 14, 15]);

const WORDS = ['fog', 'lantern', 'canal', 'bell', 'cobbles', 'ledger', 'harbour', 'shutters', 'gaslight', 'rope', 'salt', 'tide'];
/** A GM reply of about `chars` characters, different every turn. */
function narration(turn: number, chars: number): string {
	if (JAPANESE.has(turn)) return `霧の中で灯りが揺れ、運河の鐘が${turn}度鳴る。`.repeat(Math.ceil(chars / 60));
	let text = `Turn ${turn}.`;
	for (let i = 0; text.length < chars; i++)
		text += ` The ${WORDS[(turn * 7 + i) % WORDS.length] ?? 'fog'} ${i % 3 ? 'drifts' : 'waits'} by the water.`;
	return text;
}

/** The request as the OpenAI wire carries it, in o200k tokens: every message, the tool calls, the tools array, with chat framing. */
function wireTokens(r: RecordedRequest): number {
	const body = r.openai;
	if (!body) return Number.NaN;
	let n = 8 + (body.tools ? countTokensO200k(JSON.stringify(body.tools)) : 0);
	for (const m of body.messages) {
		n += 4 + (typeof m.content === 'string' ? countTokensO200k(m.content) : 0);
		if ('tool_calls' in m && m.tool_calls) n += countTokensO200k(JSON.stringify(m.tool_calls));
	}
	return n;
}

const maxTokensOf = (r: RecordedRequest) => {
	const b = r.openai;
	return b ? (b.max_tokens ?? b.max_completion_tokens ?? Number.NaN) : Number.NaN;
};

const Hits = v.object({ hits: v.array(v.object({ snippet: v.string() })) });

/**
 * A GM that plays along: narrates, records a journal entry every third turn, writes checkpoint summaries
 * (recording first), and at the last turn asks recall for the fact planted in its first reply.
 */
function gm(turnOf: () => number) {
	return (r: RecordedRequest): ScriptedReply => {
		const last = lastTurn(r);
		const turn = turnOf();
		const user = [...(r.openai?.messages ?? [])].reverse().find((m) => m.role === 'user');
		const checkpoint = typeof user?.content === 'string' && user.content.startsWith('[OPERATOR');
		if (last.kind === 'tool') return { text: checkpoint ? `## Current scene\n${narration(turn, 500)}` : narration(turn, 600) };
		if (checkpoint)
			return { toolCalls: [{ name: 'journal_append', arguments: { entry: `Checkpoint at turn ${turn}: ${narration(turn, 120)}` } }] };
		if (turn === TURNS) return { toolCalls: [{ name: 'recall', arguments: { query: ASK } }] };
		if (turn % 3 === 0) return { toolCalls: [{ name: 'journal_append', arguments: { entry: narration(turn, 160) } }] };
		return { text: turn === 1 ? `${FACT} ${narration(turn, 600)}` : narration(turn, 600) };
	};
}

/** Each threshold lets more history build up than one checkpoint request could carry within the context. */
describe.each([
	[4096, '2000'],
	[8192, '3500']
])('a campaign on a model with a context of %i tokens', (ceiling, threshold) => {
	it('every request, checkpoints in parts included, is within it with the reply’s cap; the planted fact comes back; no tool errors', async () => {
		let turn = 0;
		// A local model of the Llama family: o200k counts with a margin of 1.1 for its tokenizer.
		h = await turnHarness('openai', {
			KANTERA_CONTEXT_TOKENS: String(ceiling),
			KANTERA_CHECKPOINT_TOKENS: threshold,
			KANTERA_LLM_MODEL: 'llama3.1:8b'
		});
		h.mock.setHandler(gm(() => turn));
		for (turn = 1; turn <= TURNS; turn++) {
			const line = JAPANESE.has(turn) ? `北門の番人に${turn}度目の質問をする` : `I ask the watchman question number ${turn}`;
			expect((await h.play(line)).status).toBe('committed');
		}
		const requests = h.mock.requests;
		const checkpointRequests = requests.filter((r) =>
			(r.openai?.messages ?? []).some((m) => m.role === 'user' && typeof m.content === 'string' && m.content.startsWith('[OPERATOR'))
		);
		expect(checkpointRequests.length).toBeGreaterThan(0);
		// The history did not fit one request: it was written in parts, the older half first.
		const instructions = checkpointRequests.flatMap((r) =>
			(r.openai?.messages ?? []).flatMap((m) => (m.role === 'user' && typeof m.content === 'string' ? [m.content] : []))
		);
		expect(instructions.some((t) => t.includes('This is part 2 of a checkpoint written in parts'))).toBe(true);
		for (const r of requests) expect(wireTokens(r) + maxTokensOf(r), `request ${r.seq}`).toBeLessThanOrEqual(ceiling);
		const cps = (await h.turns()).filter((t) => t.kind === 'checkpoint');
		expect(cps.length).toBeGreaterThan(0);
		expect(cps.every((t) => t.status === 'committed')).toBe(true);
		// Tool results on the OpenAI wire carry no error flag: an error says so in its first words.
		const results = requests.flatMap((r) =>
			(r.openai?.messages ?? []).flatMap((m) => (m.role === 'tool' && typeof m.content === 'string' ? [m.content] : []))
		);
		expect(results.filter((c) => /^(\w+: invalid arguments|\w+ failed:|unknown tool)/.test(c))).toEqual([]);
		const answer = [...requests].reverse().find((r) => lastTurn(r).kind === 'tool' && r.openai?.messages.some((m) => m.role === 'tool'));
		const recalled = answer?.openai?.messages.filter((m) => m.role === 'tool').at(-1)?.content;
		const hits = v.parse(Hits, JSON.parse(typeof recalled === 'string' ? recalled : '{}')).hits;
		const rank = hits.findIndex((hit) => hit.snippet.includes('Liesl Varro')) + 1;
		expect(rank).toBeGreaterThan(0);
		expect(rank).toBeLessThanOrEqual(3);
		// A campaign of thirty turns with the real tokenizer, checkpoints in parts: more than a unit test's usual 30 s on a loaded machine.
	}, 180_000);
});

describe('a context that cannot hold the GM’s rules and tools', () => {
	it('stops the start, naming the model, what a request may take and what it needs; nothing is opened', async () => {
		const d = tempDir();
		const env = { KANTERA_DATA_DIR: d.dir, OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', KANTERA_LLM_MODEL: 'qwen2.5:7b' };
		const start = (tokens: string) => createApp(parseConfig({ ...env, KANTERA_CONTEXT_TOKENS: tokens }), { background: false });
		await expect(start('2048')).rejects.toThrow(ConfigError);
		const said = 'KANTERA_CONTEXT_TOKENS: openai:qwen2.5:7b has a context of 3000 tokens; with 750 kept for the reply and a 1.1× margin';
		await expect(start('qwen2.5=3000,8192')).rejects.toThrow(
			new RegExp(`${said} for its tokenizer, a request may take 2045 \\(o200k\\), but .* need \\d+`)
		);
		// A model a pair names with its provider is checked, and so is the free tier's.
		await expect(start('8192,openai:tiny=2048')).rejects.toThrow(/openai:tiny has a context of 2048/);
		const free = parseConfig({ ...env, KANTERA_CONTEXT_TOKENS: '8192,tiny=2048', KANTERA_FREE_MODEL: 'tiny' });
		await expect(createApp(free, { background: false })).rejects.toThrow(/openai:tiny has a context of 2048/);
		d.remove();
	});
});
