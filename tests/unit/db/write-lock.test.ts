import { describe, expect, it } from 'vitest';
import { LibsqlError } from '@libsql/client';
import { queueWrite, withWriteLock } from '../../../src/lib/server/db/write-lock';
import { isBusy } from '../../../src/lib/server/db/busy';

const busy = (extended: string, raw: number) => new LibsqlError('database is locked', 'SQLITE_BUSY', extended, raw);

describe('the write lock', () => {
	it('knows busy errors by their primary code, extended ones included', () => {
		expect(isBusy(busy('SQLITE_BUSY_SNAPSHOT', 517))).toBe(true);
		expect(isBusy(busy('SQLITE_BUSY', 5))).toBe(true);
		expect(isBusy(new LibsqlError('constraint', 'SQLITE_CONSTRAINT', 'SQLITE_CONSTRAINT_UNIQUE', 2067))).toBe(false);
		expect(isBusy(new Error('SQLITE_BUSY'))).toBe(false);
	});

	it('starts again when BEGIN fails busy, but never once the work began', async () => {
		let calls = 0;
		const value = await withWriteLock(async (started) => {
			calls++;
			if (calls < 3) throw busy('SQLITE_BUSY_SNAPSHOT', 517);
			started();
			return 'done';
		});
		expect([value, calls]).toEqual(['done', 3]);

		let after = 0;
		await expect(
			withWriteLock(async (started) => {
				after++;
				started();
				throw busy('SQLITE_BUSY', 5);
			})
		).rejects.toThrow('database is locked');
		expect(after).toBe(1);

		let bounded = 0;
		await expect(
			withWriteLock(
				async () => {
					bounded++;
					throw busy('SQLITE_BUSY', 5);
				},
				{ maxRetries: 2, baseDelayMs: 0, maxDelayMs: 0 }
			)
		).rejects.toThrow('database is locked');
		expect(bounded).toBe(3);
	});

	it('runs write transactions on one database one after another, process-wide', async () => {
		const order: string[] = [];
		const slow = (name: string) => async () => {
			order.push(`${name} start`);
			await new Promise((r) => setTimeout(r, 5));
			order.push(`${name} end`);
		};
		await Promise.all([queueWrite('file:a.db', slow('a1')), queueWrite('file:a.db', slow('a2'))]);
		expect(order).toEqual(['a1 start', 'a1 end', 'a2 start', 'a2 end']);
		// A failure does not stop the queue.
		await expect(queueWrite('file:a.db', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
		await expect(queueWrite('file:a.db', () => Promise.resolve(1))).resolves.toBe(1);
	});
});
