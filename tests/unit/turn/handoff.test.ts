import { describe, it, expect, afterEach } from 'vitest';
import { turnHarness, type TurnHarness } from '../../helpers/turns';
import { lastTurn, systemTextOf } from '../../mock-llm';
import { switchModel } from '../../../src/lib/server/turn';
import { readSettings } from '../../../src/lib/server/session-setup';

let h: TurnHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

describe('switching models mid-session', () => {
	it('the current model writes a hand-off summary, then the new one continues from it', async () => {
		h = await turnHarness('openai');
		const harness = h;
		h.mock.script([
			{ text: 'You find a brass key.' },
			{ text: '## Current scene\nThe study; the PC holds a brass key.' },
			{ text: 'The new GM continues.' }
		]);
		await h.play('I search the study');
		const result = await h.use((s) => switchModel(harness.app.config, s, harness.userId, { provider: 'anthropic', model: 'claude-next' }));
		expect(result.switched).toBe('after_handoff');
		h.app.runner.kick(h.sessionId);
		await h.app.runner.idle();
		const handoffRequest = h.mock.requests[1];
		expect(handoffRequest?.api).toBe('openai');
		expect(handoffRequest && lastTurn(handoffRequest)).toMatchObject({
			kind: 'user',
			text: expect.stringMatching(/^\[OPERATOR — CHECKPOINT/)
		});
		expect(await h.use((s) => readSettings(s.db, harness.app.config))).toMatchObject({ provider: 'anthropic', model: 'claude-next' });
		await h.play('I leave');
		const next = h.mock.requests[2];
		expect(next?.api).toBe('anthropic');
		expect(next?.anthropic?.model).toBe('claude-next');
		expect(next && systemTextOf(next)).toContain('the PC holds a brass key');
		expect(next && systemTextOf(next)?.startsWith(harness.mission)).toBe(true);
	});

	it('hands over across all three providers: OpenAI → Google (Gemini) → Anthropic → OpenAI', async () => {
		h = await turnHarness('openai');
		const harness = h;
		const chain = [
			{ provider: 'google', model: 'gemini-2.5-flash' },
			{ provider: 'anthropic', model: 'claude-sonnet-4-5' },
			{ provider: 'openai', model: 'gpt-4.1-mini' }
		] as const;
		h.mock.script([{ text: 'Turn on OpenAI.' }]);
		await h.play('I open the door');
		let previous = 'openai';
		for (const [i, next] of chain.entries()) {
			h.mock.script([{ text: `## Current scene\nHanded over by ${previous}, marker ${i}.` }, { text: `Turn on ${next.provider}.` }]);
			const switched = await h.use((s) => switchModel(harness.app.config, s, harness.userId, next));
			expect(switched.switched).toBe('after_handoff');
			h.app.runner.kick(h.sessionId);
			await h.app.runner.idle();
			// The outgoing model wrote the summary.
			expect(h.mock.requests.at(-1)?.api).toBe(previous);
			await h.play(`I go on (${i})`);
			const request = h.mock.requests.at(-1);
			expect(request?.api).toBe(next.provider);
			// The incoming model starts from the mission, byte for byte, and the hand-off summary.
			expect(request && systemTextOf(request)?.startsWith(harness.mission)).toBe(true);
			expect(request && systemTextOf(request)).toContain(`Handed over by ${previous}, marker ${i}.`);
			previous = next.provider;
		}
		const turns = await h.turns();
		expect(turns.filter((t) => t.status === 'committed').map((t) => t.provider)).toEqual([
			'openai',
			'openai',
			'google',
			'google',
			'anthropic',
			'anthropic',
			'openai'
		]);
	});

	it('switches at once when nothing has been played, and does nothing for the same model', async () => {
		h = await turnHarness('openai');
		const harness = h;
		expect(await h.use((s) => switchModel(harness.app.config, s, harness.userId, { provider: 'openai', model: 'mock-model' }))).toEqual({
			switched: 'unchanged'
		});
		expect(await h.use((s) => switchModel(harness.app.config, s, harness.userId, { provider: 'anthropic', model: 'claude-next' }))).toEqual(
			{ switched: 'now' }
		);
		expect(h.mock.requests).toHaveLength(0);
	});
});
