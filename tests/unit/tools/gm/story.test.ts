import { describe, expect, it } from 'vitest';
import { story } from '../../../../src/lib/server/records';
import { json, useTurns } from './helpers';

const withTurn = useTurns();

describe('story tools', () => {
	it('begins a plot entry, a quest and a clue, and reads them back by type and key', async () => {
		await withTurn(async (t) => {
			expect(
				await t.ok('story_begin', { type: 'plot', key: 'main-arc', title: 'The Drowned Crown', body: 'The regent hides the crown.' })
			).toBe('Plot entry "main-arc" set.');
			expect(await t.ok('story_begin', { type: 'quest', key: 'find-crown', body: 'Find the crown for the abbess.' })).toMatch(
				/Quest "find-crown" begun/
			);
			expect(await t.ok('story_begin', { type: 'clue', key: 'wet-footprints', body: 'Wet footprints lead to the cellar.' })).toMatch(
				/hidden/
			);
			expect(json(await t.ok('story_read'))).toEqual({
				entries: [
					{ type: 'plot', key: 'main-arc', title: 'The Drowned Crown', body: 'The regent hides the crown.' },
					{ type: 'quest', key: 'find-crown', body: 'Find the crown for the abbess.', status: 'open' },
					{ type: 'clue', key: 'wet-footprints', body: 'Wet footprints lead to the cellar.', revealed: false }
				]
			});
			expect(json(await t.ok('story_read', { type: 'quest' })).entries).toHaveLength(1);
			expect(json(await t.ok('story_read', { key: 'main-arc' })).entries).toEqual([expect.objectContaining({ type: 'plot' })]);
			expect((await t.call('story_read', { key: 'nope' })).content).toMatch(/no story entry with key "nope"/);
		});
	});

	it('refuses to begin what exists, pointing at the tool that changes it', async () => {
		await withTurn(async (t) => {
			await t.ok('story_begin', { type: 'plot', key: 'main-arc', body: 'v1' });
			const again = await t.call('story_begin', { type: 'plot', key: 'main-arc', body: 'v2' });
			expect(again).toMatchObject({ isError: true, ran: true });
			expect(again.content).toMatch(/already exists; change it with story_revise/);
			const truth = await t.call('story_begin', { type: 'truth', key: 'k', body: 'b' });
			expect(truth).toMatchObject({ isError: true, ran: false });
			expect(truth.content).toMatch(/confirm_truth/);
		});
	});

	it('revises plot entries only', async () => {
		await withTurn(async (t) => {
			await t.ok('story_begin', { type: 'plot', key: 'main-arc', title: 'Arc', body: 'The regent hides the crown.' });
			expect(await t.ok('story_revise', { key: 'main-arc', body: 'The abbess hides the crown.' })).toBe('Plot entry "main-arc" revised.');
			await t.commit();
			expect(await story.get(t.s.db, 'plot', 'main-arc')).toMatchObject({ title: 'Arc', body: 'The abbess hides the crown.' });
			const next = t.next();
			expect((await next.call('story_revise', { key: 'side-arc', body: 'x' })).content).toMatch(
				/no plot entry "side-arc"; begin it with story_begin/
			);
		});
	});

	it('never lets a truth be overwritten or revised', async () => {
		await withTurn(async (t) => {
			await t.ok('story_advance', { action: 'confirm_truth', key: 'regent-guilty', body: 'The regent drowned the king.' });
			await t.commit();
			const turn = t.next();

			const overwrite = await turn.call('story_advance', {
				action: 'confirm_truth',
				key: 'regent-guilty',
				body: 'The regent is innocent.'
			});
			expect(overwrite).toMatchObject({ isError: true, ran: true });
			expect(overwrite.content).toMatch(/already confirmed and truths can't be overwritten/);

			const revise = await turn.call('story_revise', { type: 'truth', key: 'regent-guilty', body: 'The regent is innocent.' });
			expect(revise).toMatchObject({ isError: true, ran: true });
			expect(revise.content).toMatch(/truths can never be revised/);
			// Without the type, the key still names a truth: same refusal, not "no plot entry".
			const byKey = await turn.call('story_revise', { key: 'regent-guilty', body: 'The regent is innocent.' });
			expect(byKey.content).toMatch(/"regent-guilty" is a confirmed truth/);

			expect(turn.staging.size).toBe(0);
			await turn.commit();
			expect(await story.read(t.s.db, { type: 'truth' })).toEqual([
				expect.objectContaining({ key: 'regent-guilty', body: 'The regent drowned the king.' })
			]);
		});
	});

	it('resolves a quest with its result and the next plan in one call, saved together', async () => {
		await withTurn(async (t) => {
			await t.ok('story_begin', { type: 'quest', key: 'find-crown', body: 'Find the crown.' });
			await t.commit();
			const turn = t.next();
			const missingPlan = await turn.call('story_advance', { action: 'resolve_quest', key: 'find-crown', result: 'Found in the cellar.' });
			expect(missingPlan).toMatchObject({ isError: true, ran: false });
			expect(missingPlan.content).toMatch(/next_plan: resolve_quest needs "key", "result" and "next_plan"/);
			expect(turn.staging.size).toBe(0);

			expect(
				await turn.ok('story_advance', {
					action: 'resolve_quest',
					key: 'find-crown',
					result: 'Found in the cellar.',
					next_plan: 'The regent sends assassins.'
				})
			).toBe('Quest "find-crown" resolved; result and next plan saved.');
			expect(turn.staging.size).toBe(1);
			await turn.commit();
			expect(await story.get(t.s.db, 'quest', 'find-crown')).toMatchObject({
				status: 'resolved',
				result: 'Found in the cellar.',
				nextPlan: 'The regent sends assassins.'
			});

			const closed = await t
				.next()
				.call('story_advance', { action: 'resolve_quest', key: 'find-crown', outcome: 'failed', result: 'x', next_plan: 'y' });
			expect(closed.content).toMatch(/already resolved/);
		});
	});

	it('reveals a clue', async () => {
		await withTurn(async (t) => {
			await t.ok('story_begin', { type: 'clue', key: 'wet-footprints', body: 'Wet footprints.' });
			expect(await t.ok('story_advance', { action: 'reveal', key: 'wet-footprints' })).toBe(
				'Clue "wet-footprints" revealed: you may now tell the player.'
			);
			expect(json(await t.ok('story_read', { type: 'clue' })).entries).toEqual([expect.objectContaining({ revealed: true })]);
		});
	});
});
