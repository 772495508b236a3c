/**
 * A statement or batch that fails busy (another instance holds the database's write lock for longer
 * than the server lets a writer wait) ran nothing, so the clients the app opens start it again
 * (db/busy.ts) instead of answering the player's request with a 500. Against the Hrana test server
 * with a short lock wait, so the first attempts really fail.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient, type Client } from '@libsql/client/web';
import { startHranaServer, type HranaServer } from '../../hrana';
import { tempDir } from '../../helpers/env';
import { openClient } from '../../../src/lib/server/db/client';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	while (cleanups.length > 0) await cleanups.pop()?.();
});

async function lockedDatabase(): Promise<{ server: HranaServer; url: string; holder: Client }> {
	const d = tempDir();
	cleanups.push(d.remove);
	const server = await startHranaServer({ dir: d.dir, autoCreate: true, busyWaitMs: 50 });
	cleanups.push(() => server.close());
	const url = server.urlFor('busy');
	const holder = createClient({ url });
	cleanups.push(() => holder.close());
	await holder.execute('CREATE TABLE t (x INTEGER)');
	return { server, url, holder };
}

describe("the app's database clients and SQLITE_BUSY", () => {
	for (const [kind, write] of [
		['execute', (c: Client) => c.execute('INSERT INTO t VALUES (2)')],
		['batch', (c: Client) => c.batch(['INSERT INTO t VALUES (2)', 'INSERT INTO t VALUES (3)'], 'write')]
	] as const) {
		it(`start ${kind === 'execute' ? 'a statement' : 'a batch'} again that failed busy while another instance held the lock`, async () => {
			const { server, url, holder } = await lockedDatabase();
			const tx = await holder.transaction('write');
			await tx.execute('INSERT INTO t VALUES (1)');

			// A plain client fails: the server's wait for the lock is over before the other transaction ends.
			const plain = createClient({ url });
			cleanups.push(() => plain.close());
			await expect(write(plain)).rejects.toMatchObject({ code: expect.stringMatching(/^SQLITE_BUSY/) });

			const app = await openClient(url, undefined, 4);
			cleanups.push(() => app.close());
			const waitsBefore = server.stats.writeWaits;
			const writing = write(app);
			// The lock is let go only once the app's client has failed busy at least once and queued again.
			await vi.waitFor(() => expect(server.stats.writeWaits).toBeGreaterThanOrEqual(waitsBefore + 2), { timeout: 10_000 });
			await tx.commit();
			await writing;
			const rows = await app.execute('SELECT x FROM t ORDER BY x');
			expect(rows.rows.map((r) => Number(r.x))).toEqual(kind === 'execute' ? [1, 2] : [1, 2, 3]);
		});
	}
});
