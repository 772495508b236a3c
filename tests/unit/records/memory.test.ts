import { describe, it, expect } from 'vitest';
import { memory, RecordError } from '../../../src/lib/server/records';
import { useSessions, sectionRows, trigram, dump, caught, checkFtsIntegrity } from './helpers';

const session = useSessions();

describe('memory notes', () => {
	it('creates, views, lists and indexes notes under `Memory › name`', () =>
		session(async (s) => {
			const mira = await s.write((tx) => memory.create(tx, { name: 'ミラ', body: '北門の衛兵。\n## 好み\n甘い菓子', ref: 'npc-1' }));
			await s.write((tx) => memory.create(tx, { name: 'Player preferences', body: 'Likes puzzles.' }));
			expect((await memory.view(s.db, 'ミラ')).body).toContain('甘い菓子');
			expect((await memory.list(s.db)).map((n) => n.name)).toEqual(['Player preferences', 'ミラ']);
			const rows = await sectionRows(s, 'memory');
			expect(rows.filter((r) => r.recordId === mira.id).map((r) => [r.path, r.body, r.ref])).toEqual([
				['Memory › ミラ', '北門の衛兵。', 'npc-1'],
				['Memory › ミラ › 好み', '甘い菓子', 'npc-1']
			]);
			expect(await trigram(s, '北門の')).toEqual([rows[0]?.id]);
		}));

	it('refuses a duplicate name and changes nothing', () =>
		session(async (s) => {
			await s.write((tx) => memory.create(tx, { name: 'ミラ', body: 'first' }));
			const before = await dump(s);
			const err = await caught(() => s.write((tx) => memory.create(tx, { name: ' ミラ ', body: 'second' })));
			expect(err).toBeInstanceOf(RecordError);
			expect(err).toMatchObject({ code: 'duplicate' });
			expect(String(err)).toContain('already exists');
			expect(await dump(s)).toEqual(before);
		}));

	it('rewrites a note or replaces exactly one occurrence', () =>
		session(async (s) => {
			await s.write((tx) => memory.create(tx, { name: 'Rumours', body: 'The bell rings at dusk. The bell is cracked.' }));
			await s.write((tx) => memory.edit(tx, 'Rumours', { old: 'at dusk', new: 'at midnight' }));
			expect((await memory.view(s.db, 'Rumours')).body).toBe('The bell rings at midnight. The bell is cracked.');

			const twice = await caught(() => s.write((tx) => memory.edit(tx, 'Rumours', { old: 'The bell', new: 'A bell' })));
			expect(twice).toMatchObject({ code: 'invalid_input' });
			expect(String(twice)).toContain('occurs 2 times');
			const none = await caught(() => s.write((tx) => memory.edit(tx, 'Rumours', { old: 'dragon', new: 'x' })));
			expect(String(none)).toContain('not found');

			await s.write((tx) => memory.edit(tx, 'Rumours', 'The bell is gone.'));
			expect((await memory.view(s.db, 'Rumours')).body).toBe('The bell is gone.');
			expect((await sectionRows(s, 'memory')).map((r) => r.body)).toEqual(['The bell is gone.']);
			expect(await trigram(s, 'cracked')).toEqual([]);
			await checkFtsIntegrity(s);
		}));

	it('deletes a note with its sections and reports missing ones', () =>
		session(async (s) => {
			await s.write((tx) => memory.create(tx, { name: 'Temp', body: 'ephemeral fact' }));
			await s.write((tx) => memory.delete(tx, 'Temp'));
			expect(await sectionRows(s, 'memory')).toEqual([]);
			expect(await trigram(s, 'ephemeral')).toEqual([]);
			expect(await caught(() => memory.view(s.db, 'Temp'))).toMatchObject({ code: 'not_found' });
			expect(await caught(() => s.write((tx) => memory.delete(tx, 'Temp')))).toMatchObject({ code: 'not_found' });
			expect(await caught(() => s.write((tx) => memory.edit(tx, 'Temp', 'x')))).toMatchObject({ code: 'not_found' });
			// The name is free again.
			await s.write((tx) => memory.create(tx, { name: 'Temp', body: 'again' }));
		}));
});
