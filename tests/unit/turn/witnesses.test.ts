/**
 * Characters know only what they witnessed or were told (issue 27): what is written down while a
 * character stands on the stage — a journal entry, a truth, the turn's play-log lines — is theirs to
 * recall (`recall` with `known_by`); a character who was not there does not recall it, unless a note
 * names them as told.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { turnHarness, type TurnHarness } from '../../helpers/turns';

let h: TurnHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

/** What the GM's recall calls of the last turn returned, in order. */
function recallResults(harness: TurnHarness): string[] {
	const last = harness.mock.requests.at(-1)?.openai;
	return (last?.messages ?? []).flatMap((m) => (m.role === 'tool' && typeof m.content === 'string' ? [m.content] : []));
}

describe('recall with known_by', () => {
	it('returns what a character on stage witnessed, and nothing to one who was not there until told', async () => {
		h = await turnHarness('openai');
		h.mock.script([
			{
				toolCalls: [
					{ name: 'adv_stage', arguments: { cues: [{ paragraph: 1, action: 'enter', character: 'Ana', slot: 'left' }] } },
					{ name: 'journal_append', arguments: { entry: 'The bell tower burned at midnight.' } },
					{
						name: 'story_advance',
						arguments: { action: 'confirm_truth', key: 'arson', body: 'The bell tower fire was set with lamp oil.' }
					}
				]
			},
			{ text: '@Ana: The bell tower is on fire!' }
		]);
		expect((await h.play('I watch the square.')).status).toBe('committed');

		h.mock.reset();
		h.mock.script([
			{
				toolCalls: [
					{ name: 'recall', arguments: { query: 'bell tower', known_by: 'Ana' } },
					{ name: 'recall', arguments: { query: 'bell tower', known_by: 'Bram' } }
				]
			},
			{ text: 'Morning.' }
		]);
		expect((await h.play('Next morning I ask around.')).status).toBe('committed');
		const [ana, bram] = recallResults(h);
		expect(ana).toContain('journal');
		expect(ana).toContain('story');
		expect(ana).toContain('log');
		expect(bram).toContain('Bram witnessed or was told nothing');

		// Told off stage: a note names Bram, and he knows that much.
		h.mock.reset();
		h.mock.script([
			{
				toolCalls: [
					{
						name: 'memory',
						arguments: { action: 'create', name: 'Rumour', body: 'Ana told Bram the bell tower burned.', known_by: ['Bram'] }
					},
					{ name: 'recall', arguments: { query: 'bell tower', known_by: 'bram' } }
				]
			},
			{ text: 'Bram nods.' }
		]);
		expect((await h.play('I find Bram.')).status).toBe('committed');
		const [, told] = recallResults(h);
		expect(told).toContain('memory');
		expect(told).not.toContain('"journal"');
	});
});
