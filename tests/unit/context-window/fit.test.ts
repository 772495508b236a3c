import { describe, it, expect } from 'vitest';
import {
	ContextTooSmallError,
	fitRequest,
	requestTokens,
	type Exchange,
	type RecordsHead,
	type RequestBudget,
	type RequestParts
} from '../../../src/lib/server/context-window';
import type { LlmMessage } from '../../../src/lib/server/llm';

/** One token a character: every size below reads off the texts. */
const chars = (t: string) => t.length;
const MISSION = `GM RULES ${'m'.repeat(200)}`;

const head = (over: Partial<RecordsHead> = {}): RecordsHead => ({
	summary: '## Current scene\nThe cellar.\n## Key NPCs\nBram the ferryman.\n## Player preferences\nShort replies.',
	toc: ['document #1: World', '  The North Gate', '  The Lantern Inn'],
	state: { hp: 10, location: 'cellar' },
	journal: ['found the key', 'met Bram', 'crossed the canal'].map((e) => `${e} ${'j'.repeat(100)}`),
	stage: 'background: cellar',
	...over
});
const ex = (n: number, over: Partial<Exchange> = {}): Exchange => ({
	player: `player line ${n} ${'p'.repeat(40)}`,
	gm: `gm reply ${n} ${'g'.repeat(120)}`,
	...over
});
const parts = (over: Partial<RequestParts> = {}): RequestParts => ({
	mission: MISSION,
	head: head(),
	window: [ex(1), ex(2), ex(3), ex(4)],
	turn: [{ role: 'user', content: 'I open the door' }],
	tools: [],
	...over
});
/** A budget whose input room is `input` tokens (no margin, nothing else set aside). */
const budget = (input: number): RequestBudget => ({ contextTokens: input + 256, maxOutputTokens: 256, inputTokens: input, margin: 1 });
const fullSize = (p: RequestParts) => requestTokens({ ...fitRequest(p, budget(1e9), chars), tools: p.tools }, chars);
const players = (messages: readonly LlmMessage[]) =>
	messages.filter((m) => m.role === 'user').map((m) => m.content.split(' ').slice(0, 3).join(' '));

describe('fitting a request within the context: what gives way, in order', () => {
	it('nothing gives way while the request fits; its bytes alone show it, so nothing is counted', () => {
		const p = parts();
		let counted = 0;
		const r = fitRequest(p, budget(fullSize(p)), (t) => (counted++, t.length));
		expect(r.tokens).toBeUndefined();
		expect(counted).toBe(0);
		expect(r.gaveWay).toEqual({ exchanges: 0, excerpts: 0, thread: 0, toolResults: 0 });
		expect(r.messages).toHaveLength(9);
	});

	it('1. old exchanges of the window first, oldest first; the head and the newest exchange stay', () => {
		const p = parts();
		const r = fitRequest(p, budget(fullSize(p) - 1), chars);
		expect(r.gaveWay).toEqual({ exchanges: 1, excerpts: 0, thread: 0, toolResults: 0 });
		expect(players(r.messages)).toEqual(['player line 2', 'player line 3', 'player line 4', 'I open the']);
		expect(r.tokens).toBeLessThanOrEqual(fullSize(p) - 1);
		const fewer = fitRequest(p, budget(fullSize(p) - 400), chars);
		expect(fewer.gaveWay.exchanges).toBe(3);
		expect(players(fewer.messages)).toEqual(['player line 4', 'I open the']);
		expect(fewer.system).toContain('found the key');
	});

	it('2. then record excerpts: journal entries (oldest first), then lines of the table of contents, each section saying so', () => {
		const p = parts({ window: [ex(1), ex(2)] });
		const noOld = fullSize(p) - fullSize(parts({ window: [ex(2)] }));
		const r = fitRequest(p, budget(fullSize(p) - noOld - 20), chars);
		expect(r.gaveWay.exchanges).toBe(1);
		expect(r.gaveWay.excerpts).toBeGreaterThanOrEqual(1);
		expect(r.system).not.toContain('found the key');
		expect(r.system).toContain('older entries left out to fit the model');
		expect(r.system).toContain('crossed the canal');
		// The newest exchange (the line the player answers) is still there.
		expect(players(r.messages)).toEqual(['player line 2', 'I open the']);
		const more = fitRequest(p, budget(fullSize(p) - noOld - 420), chars);
		expect(more.system).not.toContain('crossed the canal');
		expect(more.system).not.toContain('The Lantern Inn');
		expect(more.system).toContain('more lines left out to fit the model');
	});

	it('2. …then the summary from its end (never in a checkpoint request), then the state and the stage', () => {
		const p = parts({ window: [ex(1)], head: head({ journal: [], toc: [] }) });
		const tight = fitRequest(p, budget(fullSize(p) - 40), chars);
		expect(tight.system).toContain('## Current scene');
		expect(tight.system).not.toContain('Short replies.');
		expect(tight.system).toContain('the rest of this summary was left out');
		const tighter = fitRequest(p, budget(fullSize(p) - 140), chars);
		expect(tighter.system).toContain("(left out to fit the model's context: get_state reads it)");
		expect(tighter.system).not.toContain('background: cellar');
		// A checkpoint request carries the summary whole: its reply replaces it.
		const checkpoint = fitRequest({ ...p, keepSummary: true }, budget(fullSize(p) - 40), chars);
		expect(checkpoint.system).toContain('Short replies.');
		expect(checkpoint.system).toContain('get_state reads it');
	});

	it('3. then the thread: the carried exchanges and the newest, oldest first', () => {
		const p = parts({
			window: [ex(1, { carried: true }), ex(2)],
			head: head({ journal: [], toc: [], summary: undefined, stage: undefined })
		});
		const r = fitRequest(p, budget(fullSize(p) - 150), chars);
		expect(r.gaveWay.thread).toBe(1);
		expect(players(r.messages)).toEqual(['player line 2', 'I open the']);
		const none = fitRequest(p, budget(fullSize(p) - 300), chars);
		expect(none.gaveWay.thread).toBe(2);
		expect(players(none.messages)).toEqual(['I open the']);
	});

	it('4. last, the results of the turn’s tool calls, oldest first, each replaced by a note; the input and the calls stay', () => {
		const turn: LlmMessage[] = [
			{ role: 'user', content: 'I search the room' },
			{ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'recall', arguments: '{"query":"room"}' }] },
			{ role: 'tool', toolCallId: 'c1', name: 'recall', content: 'r'.repeat(600) },
			{ role: 'assistant', content: '', toolCalls: [{ id: 'c2', name: 'recall', arguments: '{"query":"door"}' }] },
			{ role: 'tool', toolCallId: 'c2', name: 'recall', content: 's'.repeat(600) }
		];
		const p = parts({ window: [], head: head({ journal: [], toc: [], summary: undefined, stage: undefined, state: {} }), turn });
		const r = fitRequest(p, budget(fullSize(p) - 300), chars);
		expect(r.gaveWay.toolResults).toBe(1);
		expect(r.messages[2]?.content).toMatch(/^\[left out to fit the model's context/);
		expect(r.messages[4]?.content).toBe('s'.repeat(600));
		expect(r.messages.slice(0, 2)).toEqual(turn.slice(0, 2));
	});

	it('never the mission: it heads every fitted request byte for byte, and what cannot fit without cutting it is an error', () => {
		const p = parts();
		for (const cut of [0, 100, 300, 600]) expect(fitRequest(p, budget(fullSize(p) - cut), chars).system.startsWith(MISSION)).toBe(true);
		const tooLong = parts({ turn: [{ role: 'user', content: 'x'.repeat(2000) }] });
		expect(() => fitRequest(tooLong, budget(MISSION.length + 1500), chars)).toThrow(ContextTooSmallError);
		expect(() => fitRequest(tooLong, budget(MISSION.length + 1500), chars)).toThrow(/the input is too long for it/);
	});

	it('whatever gave way, the request as rendered is within the budget by its own count', () => {
		const p = parts({ window: [ex(1, { carried: true }), ex(2), ex(3), ex(4)] });
		for (let cut = 0; cut < fullSize(p) - MISSION.length - 200; cut += 37) {
			const b = budget(fullSize(p) - cut);
			let r;
			try {
				r = fitRequest(p, b, chars);
			} catch (err) {
				expect(err).toBeInstanceOf(ContextTooSmallError);
				continue;
			}
			expect(requestTokens({ ...r, tools: p.tools }, chars)).toBeLessThanOrEqual(b.inputTokens);
		}
	});
});
