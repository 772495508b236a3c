import { describe, it, expect } from 'vitest';
import * as v from 'valibot';
import {
	MemoryPolicySchema,
	checkpointDue,
	historyTokens,
	windowOf,
	carryOver,
	CARRY_EXCHANGES,
	CARRY_TOKENS,
	buildContext,
	systemText,
	checkpointInstruction,
	checkpointMessages,
	estimateTokens,
	exchangeTokensOf,
	type Exchange,
	type TokenCounter
} from '../../../src/lib/server/context-window';

/** Deterministic counter: one token per character. */
const chars: TokenCounter = (t) => t.length;

const ex = (player: string, gm: string): Exchange => ({ player, gm });

describe('memory policy', () => {
	it('rejects a zero window or a zero threshold', () => {
		expect(v.safeParse(MemoryPolicySchema, { windowExchanges: 0, checkpointTokens: 100 }).success).toBe(false);
		expect(v.safeParse(MemoryPolicySchema, { windowExchanges: 4, checkpointTokens: 0 }).success).toBe(false);
		expect(v.safeParse(MemoryPolicySchema, { windowExchanges: 1.5, checkpointTokens: 10 }).success).toBe(false);
		expect(v.safeParse(MemoryPolicySchema, { windowExchanges: 4, checkpointTokens: 100 }).success).toBe(true);
	});
});

describe('checkpoint threshold', () => {
	const policy = { windowExchanges: 4, checkpointTokens: 10 };
	it('exactly at the threshold does not fire; one token over does', () => {
		expect(checkpointDue([ex('abcde', 'fghij')], policy, chars)).toBe(false);
		expect(historyTokens([ex('abcde', 'fghij')], chars)).toBe(10);
		expect(checkpointDue([ex('abcde', 'fghijk')], policy, chars)).toBe(true);
	});
	it('an empty history never fires', () => {
		expect(checkpointDue([], { windowExchanges: 1, checkpointTokens: 1 }, chars)).toBe(false);
	});
});

describe('the opening scene in the first context', () => {
	it('comes after the records, before the player input, and only when given', () => {
		const head = { toc: ['document #1: Premise'], state: { hp: 10 }, journal: [] };
		const first = buildContext('MISSION', { ...head, opening: 'The tavern is smoky.\n\nOn stage: Mirela (left).' }, [], 'I sit down.');
		expect(first.head).toMatch(/## Recent journal[\s\S]*## Opening scene/);
		expect(first.head).toMatch(
			/## Opening scene \(the player has just read this on screen; continue from it, do not retell it\)\n\nThe tavern is smoky\.\n\nOn stage: Mirela \(left\)\.$/
		);
		expect(first.messages).toEqual([{ role: 'user', content: 'I sit down.' }]);
		expect(buildContext('MISSION', head, [], 'x').head).not.toContain('Opening scene');
	});
});

describe('window and context', () => {
	const history = Array.from({ length: 7 }, (_, i) => ex(`player ${i}`, `gm ${i}`));

	it('keeps the last N whole exchanges', () => {
		const w = windowOf(history, { windowExchanges: 3, checkpointTokens: 1000 });
		expect(w).toEqual(history.slice(4));
	});

	it('and no more tokens of them than windowTokens, the newest kept whatever its size', () => {
		const sized = (n: number, tokens: number): Exchange => ({ player: `p${n}`, gm: `g${n}`, tokens });
		const long = [sized(0, 100), sized(1, 300), sized(2, 200), sized(3, 250)];
		expect(windowOf(long, { windowExchanges: 8, checkpointTokens: 1000, windowTokens: 450 }).map((e) => e.player)).toEqual(['p2', 'p3']);
		expect(windowOf(long, { windowExchanges: 8, checkpointTokens: 1000, windowTokens: 449 }).map((e) => e.player)).toEqual(['p3']);
		expect(windowOf(long, { windowExchanges: 8, checkpointTokens: 1000, windowTokens: 100 }).map((e) => e.player)).toEqual(['p3']);
		expect(windowOf(long, { windowExchanges: 2, checkpointTokens: 1000, windowTokens: 10_000 }).map((e) => e.player)).toEqual(['p2', 'p3']);
	});

	it('orders mission → summary → toc/state/journal → window → input, mission verbatim first', () => {
		const mission = '  You are the GM.\nNever break these rules.  ';
		const ctx = buildContext(
			mission,
			{ summary: 'Bram guards the North Gate.', toc: ['World › Geography › North Gate'], state: { hp: 7 }, journal: ['Found a brass key'] },
			history.slice(-2),
			'I open the door'
		);
		const sys = systemText(ctx);
		expect(sys.startsWith(mission)).toBe(true);
		const order = ['Bram guards the North Gate.', 'World › Geography › North Gate', '"hp": 7', 'Found a brass key'].map((s) =>
			sys.indexOf(s)
		);
		expect(order.every((pos) => pos > mission.length)).toBe(true);
		expect([...order].sort((a, b) => a - b)).toEqual(order);
		expect(ctx.messages.map((m) => m.content)).toEqual(['player 5', 'gm 5', 'player 6', 'gm 6', 'I open the door']);
		expect(ctx.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
	});
});

describe('carried over a checkpoint', () => {
	const carried = (player: string, gm: string, tokens?: number): Exchange => ({ player, gm, tokens, carried: true });
	const policy = { windowExchanges: 4, checkpointTokens: 10 };

	it('keeps the last exchanges from before the checkpoint, at most CARRY_EXCHANGES of them', () => {
		const before = Array.from({ length: 5 }, (_, i) => carried(`old p${i}`, `old g${i}`));
		expect(CARRY_EXCHANGES).toBe(2);
		expect(windowOf(before, policy, chars).map((e) => e.player)).toEqual(['old p3', 'old p4']);
		// Fresh exchanges follow them and push them out of the window as it fills.
		const fresh = Array.from({ length: 3 }, (_, i) => ex(`p${i}`, `g${i}`));
		expect(windowOf([...before, ...fresh], policy, chars).map((e) => e.player)).toEqual(['old p4', 'p0', 'p1', 'p2']);
	});

	it('keeps the newest whatever its size, an older one only within CARRY_TOKENS', () => {
		const big = carried('a', 'b', CARRY_TOKENS + 500);
		expect(carryOver([carried('x', 'y', 10), big]).map((e) => e.player)).toEqual(['a']);
		expect(carryOver([carried('x', 'y', CARRY_TOKENS - 100), carried('a', 'b', 100)]).map((e) => e.player)).toEqual(['x', 'a']);
		expect(carryOver([carried('x', 'y', CARRY_TOKENS - 99), carried('a', 'b', 100)]).map((e) => e.player)).toEqual(['a']);
	});

	it('does not count towards the next checkpoint and is not sent with it', () => {
		const history = [carried('abcdefghij', 'klmnopqrst'), ex('abc', 'def')];
		expect(historyTokens(history, chars)).toBe(6);
		expect(checkpointDue(history, policy, chars)).toBe(false);
		expect(checkpointDue([carried('abcdefghij', 'klmnopqrst')], { windowExchanges: 4, checkpointTokens: 1 }, chars)).toBe(false);
		expect(checkpointMessages(history, 'CHECKPOINT').map((m) => m.content)).toEqual(['abc', 'def', 'CHECKPOINT']);
	});
});

describe('checkpoint request', () => {
	it('is an operator message with the fixed headings, pointing at the previous summary to carry forward', () => {
		const text = checkpointInstruction('en', true);
		expect(text).toMatch(/^\[OPERATOR/);
		for (const h of [
			'## Current scene',
			'## PC and companions',
			'## Open quests and foreshadowing',
			'## Key NPCs',
			'## Player preferences'
		])
			expect(text).toContain(h);
		expect(text).toMatch(/carry forward everything in it/);
		expect(checkpointInstruction('en', false)).not.toMatch(/carry forward/);
		expect(checkpointInstruction('ja', false)).toContain('## 主要 NPC');
	});

	it('carries the whole history since the last checkpoint, not just the window', () => {
		const history = Array.from({ length: 6 }, (_, i) => ex(`p${i}`, `g${i}`));
		const msgs = checkpointMessages(history, 'CHECKPOINT');
		expect(msgs).toHaveLength(13);
		expect(msgs[0]?.content).toBe('p0');
		expect(msgs.at(-1)).toEqual({ role: 'user', content: 'CHECKPOINT' });
	});
});

describe('tokens of a committed exchange', () => {
	const input = 'I open the door'; // estimated at 4 tokens, 15 characters
	const text = 'The door creaks open.'; // 21 characters

	it('takes the reply from the output tokens the provider reported, and estimates the line', () => {
		expect(exchangeTokensOf(input, [{ text, toolCalls: 0, usage: { outputTokens: 5 } }], chars)).toBe(estimateTokens(input) + 5);
	});

	it('leaves out the reasoning tokens: they never come back into a context', () => {
		expect(exchangeTokensOf(input, [{ text, toolCalls: 0, usage: { outputTokens: 305, reasoningTokens: 300 } }], chars)).toBe(
			estimateTokens(input) + 5
		);
	});

	it('counts with the counter where nothing usable was reported: no usage, zeros, or a round that also called tools', () => {
		expect(exchangeTokensOf(input, [{ text, toolCalls: 0 }], chars)).toBe(15 + 21);
		expect(exchangeTokensOf(input, [{ text, toolCalls: 0, usage: { outputTokens: 0 } }], chars)).toBe(15 + 21);
		expect(exchangeTokensOf(input, [{ text, toolCalls: 1, usage: { outputTokens: 90 } }], chars)).toBe(15 + 21);
		// A tool round's text is counted, the final round's taken from its usage.
		expect(
			exchangeTokensOf(
				input,
				[
					{ text: 'One moment.', toolCalls: 1, usage: { outputTokens: 90 } },
					{ text, toolCalls: 0, usage: { outputTokens: 5 } }
				],
				chars
			)
		).toBe(estimateTokens(input) + 11 + 5);
	});

	it('skips rounds without text', () => {
		expect(exchangeTokensOf(input, [{ text: '  ', toolCalls: 1, usage: { outputTokens: 40 } }], chars)).toBe(15);
	});
});

describe('token estimate', () => {
	it('counts CJK characters one each and Latin text by about four characters', () => {
		expect(estimateTokens('北門の衛兵')).toBe(5);
		expect(estimateTokens('abcdefgh')).toBe(2);
		expect(estimateTokens('')).toBe(0);
	});
});

describe('production tokenizer', () => {
	it('counts with the o200k_base encoding', async () => {
		const { countTokensO200k } = await import('../../../src/lib/server/context-window');
		expect(countTokensO200k('hello world')).toBe(2);
		expect(countTokensO200k('')).toBe(0);
		const ja = countTokensO200k('北門の衛兵ブラム');
		expect(ja).toBeGreaterThan(1);
		expect(ja).toBeLessThan(9);
	});
});
