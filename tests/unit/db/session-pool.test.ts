import { describe, it, expect } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SessionDbPool, sessionDbUrl, InvalidSessionIdError, newId, sessionSchema } from '../../../src/lib/server/db';
import { parseConfig } from '../../../src/lib/server/config';
import { tempDir } from '../../helpers/env';

describe('session database pool', () => {
	it('rejects ids that could escape the data directory', () => {
		for (const bad of ['../etc/passwd', 'abc', 'ABCDEFGHIJKLMNOPQRST', 'aaaaaaaaaaaaaaaaaaa/', '', 'a'.repeat(21)]) {
			expect(() => sessionDbUrl('file:/tmp/{id}.db', bad)).toThrow(InvalidSessionIdError);
		}
		const id = newId();
		expect(sessionDbUrl('libsql://{id}-org.turso.io', id)).toBe(`libsql://${id}-org.turso.io`);
	});

	it('creates one database file per session and bounds how many stay open', async () => {
		const d = tempDir();
		const cfg = parseConfig({ KANTERA_DATA_DIR: d.dir, KANTERA_SESSION_DB_CACHE: '2' });
		const pool = new SessionDbPool(cfg);
		const ids = [newId(), newId(), newId()];
		for (const id of ids) {
			await pool.create(id);
			await pool.use(id, (s) => s.write((tx) => tx.insert(sessionSchema.journal).values({ body: `hello ${id}`, createdAt: 1 })));
		}
		expect(pool.size).toBe(2);
		for (const id of ids) {
			expect(existsSync(path.join(d.dir, 'sessions', `${id}.db`))).toBe(true);
			// Reopening an evicted database finds its data.
			const rows = await pool.use(id, (s) => s.db.select().from(sessionSchema.journal));
			expect(rows.map((r) => r.body)).toEqual([`hello ${id}`]);
		}
		await pool.destroy(ids[0] ?? '');
		expect(existsSync(path.join(d.dir, 'sessions', `${ids[0]}.db`))).toBe(false);
		await pool.closeAll();
		d.remove();
	});

	it('serialises concurrent writes to one session instead of failing with SQLITE_BUSY', async () => {
		const d = tempDir();
		const pool = new SessionDbPool(parseConfig({ KANTERA_DATA_DIR: d.dir }));
		const id = newId();
		await pool.create(id);
		await pool.use(id, async (s) => {
			await Promise.all(
				Array.from({ length: 20 }, (_, i) =>
					s.write(async (tx) => {
						await tx.insert(sessionSchema.journal).values({ body: `e${i}`, createdAt: i });
						await new Promise((r) => setTimeout(r, 1));
					})
				)
			);
			const rows = await s.db.select().from(sessionSchema.journal);
			expect(rows).toHaveLength(20);
		});
		await pool.closeAll();
		d.remove();
	});
});
