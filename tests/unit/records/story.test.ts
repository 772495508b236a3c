import { describe, it, expect } from 'vitest';
import { story, journal, RecordError } from '../../../src/lib/server/records';
import { useSessions, sectionRows, trigram, dump, caught } from './helpers';

const session = useSessions();

describe('story DB', () => {
	it('refuses to overwrite a confirmed truth and says what to do instead', () =>
		session(async (s) => {
			await s.write((tx) => story.addTruth(tx, { key: 'culprit', title: '黒幕', body: '領主が黒幕である。' }));
			const before = await dump(s);
			const err = await caught(() => s.write((tx) => story.addTruth(tx, { key: 'culprit', body: '実は司祭が黒幕。' })));
			expect(err).toBeInstanceOf(RecordError);
			expect(err).toMatchObject({ code: 'truth_exists' });
			expect(String(err)).toMatch(/can't be overwritten.*add a new truth/);
			expect(await dump(s)).toEqual(before);
			expect((await story.get(s.db, 'truth', 'culprit')).body).toBe('領主が黒幕である。');
			// A different key is a new truth, and the same key may be used by another entry type.
			await s.write((tx) => story.addTruth(tx, { key: 'culprit-2', body: '司祭は領主に脅されていた。' }));
			await s.write((tx) => story.setPlot(tx, { key: 'culprit', body: 'Reveal the culprit in act 3.' }));
			expect((await story.read(s.db, { type: 'truth' })).map((e) => e.key)).toEqual(['culprit', 'culprit-2']);
		}));

	it('sets and revises plot entries by key', () =>
		session(async (s) => {
			const first = await s.write((tx) => story.setPlot(tx, { key: 'act1', title: '第一幕', body: '北門で事件が起きる。' }));
			const revised = await s.write((tx) => story.setPlot(tx, { key: 'act1', body: '北門で火事が起きる。' }));
			expect(revised.title).toBe('第一幕');
			expect(revised.id).toBe(first.id);
			expect(await story.read(s.db, { type: 'plot' })).toHaveLength(1);
			const rows = await sectionRows(s, 'story');
			expect(rows.map((r) => [r.path, r.body])).toEqual([['Story › plot › 第一幕', '北門で火事が起きる。']]);
		}));

	it('resolves a quest once, saving result and next plan together', () =>
		session(async (s) => {
			await s.write((tx) => story.beginQuest(tx, { key: 'lost-cat', title: 'Lost cat', body: 'Find the baker’s cat.' }));
			expect((await story.get(s.db, 'quest', 'lost-cat')).status).toBe('open');
			expect(await caught(() => s.write((tx) => story.beginQuest(tx, { key: 'lost-cat', body: 'again' })))).toMatchObject({
				code: 'duplicate'
			});

			// Both fields are required; a missing one leaves the quest open.
			const missing = await caught(() =>
				s.write((tx) => story.resolveQuest(tx, { key: 'lost-cat', status: 'resolved', result: 'Found it.', nextPlan: ' ' }))
			);
			expect(missing).toMatchObject({ code: 'invalid_input' });
			expect((await story.get(s.db, 'quest', 'lost-cat')).status).toBe('open');

			const done = await s.write((tx) =>
				story.resolveQuest(tx, {
					key: 'lost-cat',
					status: 'resolved',
					result: 'Found it in the bell tower.',
					nextPlan: 'The baker owes the party a favour.'
				})
			);
			expect(done).toMatchObject({
				status: 'resolved',
				result: 'Found it in the bell tower.',
				nextPlan: 'The baker owes the party a favour.'
			});
			const [section] = await sectionRows(s, 'story');
			expect(section?.body).toContain('Status: resolved');
			expect(section?.body).toContain('Next plan: The baker owes the party a favour.');

			const again = await caught(() =>
				s.write((tx) => story.resolveQuest(tx, { key: 'lost-cat', status: 'failed', result: 'x', nextPlan: 'y' }))
			);
			expect(again).toMatchObject({ code: 'conflict' });
			expect((await story.get(s.db, 'quest', 'lost-cat')).status).toBe('resolved');
			expect(
				await caught(() => s.write((tx) => story.resolveQuest(tx, { key: 'nope', status: 'abandoned', result: 'x', nextPlan: 'y' })))
			).toMatchObject({ code: 'not_found' });
		}));

	it('rolls a quest resolution back with the rest of a failed turn', () =>
		session(async (s) => {
			await s.write((tx) => story.beginQuest(tx, { key: 'bell', body: 'Ring the bell.' }));
			const before = await dump(s);
			await caught(() =>
				s.write(async (tx) => {
					await story.resolveQuest(tx, { key: 'bell', status: 'failed', result: 'The rope broke.', nextPlan: 'Find a new rope.' });
					await journal.append(tx, { body: 'The bell stayed silent.' });
					throw new Error('provider error mid-turn');
				})
			);
			expect(await dump(s)).toEqual(before);
			expect((await story.get(s.db, 'quest', 'bell')).status).toBe('open');
		}));

	it('adds hidden clues and reveals them', () =>
		session(async (s) => {
			await s.write((tx) => story.addClue(tx, { key: 'ash', title: '灰', body: '暖炉に燃え残った手紙。' }));
			expect((await story.get(s.db, 'clue', 'ash')).revealed).toBe(false);
			const [shown] = await s.write((tx) => story.reveal(tx, 'ash'));
			expect(shown?.revealed).toBe(true);
			expect((await s.write((tx) => story.reveal(tx, 'ash'))).map((e) => e.revealed)).toEqual([true]);
			expect((await sectionRows(s, 'story'))[0]?.body).toContain('Revealed: yes');
			expect(await caught(() => s.write((tx) => story.reveal(tx, 'none')))).toMatchObject({ code: 'not_found' });
		}));

	it('reveals a secret truth, and a clue under the same key with it; the revealed keys are read back (issue 27)', () =>
		session(async (s) => {
			await s.write((tx) => story.addTruth(tx, { key: 'mole', body: 'The quartermaster sells maps.' }));
			await s.write((tx) => story.addClue(tx, { key: 'mole', body: 'Ink on his cuffs.' }));
			expect(await story.revealedKeysQuery(s.db)).toEqual([]);
			const revealed = await s.write((tx) => story.reveal(tx, 'mole'));
			expect(revealed.map((e) => [e.type, e.revealed])).toEqual([
				['clue', true],
				['truth', true]
			]);
			expect((await story.revealedKeysQuery(s.db)).map((r) => r.key)).toEqual(['mole', 'mole']);
		}));

	it('marks every story section GM-only', () =>
		session(async (s) => {
			await s.write(async (tx) => {
				await story.setPlot(tx, { key: 'p', body: 'plot text' });
				await story.addTruth(tx, { key: 't', body: '北門の鍵は領主が持つ。' });
				await story.beginQuest(tx, { key: 'q', body: 'quest text' });
				await story.addClue(tx, { key: 'c', body: 'clue text' });
			});
			const rows = await sectionRows(s, 'story');
			expect(rows.map((r) => r.path)).toEqual(['Story › plot › p', 'Story › truth › t', 'Story › quest › q', 'Story › clue › c']);
			expect(rows.every((r) => r.gmOnly)).toBe(true);
			expect(await trigram(s, '北門の')).toEqual([rows[1]?.id]);
			expect((await story.read(s.db)).map((e) => e.type)).toEqual(['plot', 'truth', 'quest', 'clue']);
		}));
});
