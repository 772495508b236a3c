import { describe, it, expect } from 'vitest';
import { state, RecordError } from '../../../src/lib/server/records';
import { useSessions, sectionRows, trigram, queued, clearQueue, dump, caught, checkFtsIntegrity } from './helpers';

const session = useSessions();

describe('state', () => {
	it('is an empty document at version 0 before the first patch', () =>
		session(async (s) => {
			expect(await state.get(s.db)).toEqual({ doc: {}, version: 0 });
			expect(await sectionRows(s, 'state')).toEqual([]);
		}));

	it('merges patches, bumps the version and indexes one section per top-level key', () =>
		session(async (s) => {
			await s.write((tx) => state.patch(tx, { location: '北門の詰所', hp: 10, inventory: ['rope', 'lantern'], flags: { metMira: true } }));
			const after = await s.write((tx) => state.patch(tx, { hp: 7, flags: { gateOpen: true }, inventory: null }));
			expect(after).toEqual({ doc: { location: '北門の詰所', hp: 7, flags: { metMira: true, gateOpen: true } }, version: 2 });
			expect(await state.get(s.db)).toEqual(after);

			const rows = await sectionRows(s, 'state');
			expect(rows.map((r) => [r.path, r.body])).toEqual([
				['State › location', '北門の詰所'],
				['State › hp', '7'],
				['State › flags', '{"metMira":true,"gateOpen":true}']
			]);
			expect(rows.every((r) => !r.gmOnly && r.recordId === 1)).toBe(true);
			expect(await trigram(s, '北門の')).toEqual([rows[0]?.id]);
			// The deleted key's section is gone from the index too.
			expect(await trigram(s, 'lantern')).toEqual([]);
			await checkFtsIntegrity(s);
		}));

	it('re-queues only the keys that changed', () =>
		session(async (s) => {
			await s.write((tx) => state.patch(tx, { location: 'gate', hp: 10, time: 'dusk' }));
			const before = await sectionRows(s, 'state');
			await clearQueue(s);
			await s.write((tx) => state.patch(tx, { hp: 9 }));
			const after = await sectionRows(s, 'state');
			expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
			const hp = after.find((r) => r.path === 'State › hp');
			expect(await queued(s)).toEqual([hp?.id]);
		}));

	it('refuses patches that are not a JSON object and leaves the state as it was', () =>
		session(async (s) => {
			await s.write((tx) => state.patch(tx, { hp: 10 }));
			const before = await dump(s);
			for (const bad of [['hp', 3], 'hp=3', 42, null, true, { hp: Number.NaN }, { hp: undefined }, { at: new Date() }]) {
				const err = await caught(() => s.write((tx) => state.patch(tx, bad)));
				expect(err).toBeInstanceOf(RecordError);
				expect(err).toMatchObject({ code: 'invalid_patch' });
			}
			const arrayErr = await caught(() => s.write((tx) => state.patch(tx, [1])));
			expect(String(arrayErr)).toMatch(/must be a JSON object.*replace the whole state/);
			expect(await dump(s)).toEqual(before);
			expect(await state.get(s.db)).toEqual({ doc: { hp: 10 }, version: 1 });
		}));

	it('refuses a patch made against an old version', () =>
		session(async (s) => {
			await s.write((tx) => state.patch(tx, { hp: 10 }));
			await s.write((tx) => state.patch(tx, { hp: 9 }, { expectedVersion: 1 }));
			const err = await caught(() => s.write((tx) => state.patch(tx, { hp: 1 }, { expectedVersion: 1 })));
			expect(err).toMatchObject({ code: 'conflict' });
			expect((await state.get(s.db)).doc).toEqual({ hp: 9 });
		}));

	it('lets reads inside the transaction see its staged writes', () =>
		session(async (s) => {
			await s.write(async (tx) => {
				await state.patch(tx, { hp: 5 });
				expect(await state.get(tx)).toEqual({ doc: { hp: 5 }, version: 1 });
				await state.patch(tx, { mp: 2 });
				expect(await state.get(tx)).toEqual({ doc: { hp: 5, mp: 2 }, version: 2 });
			});
		}));
});
