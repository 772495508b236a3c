/**
 * The Hrana test server is as faithful as a libSQL server where two clients write one database at once:
 * the second writer waits in line for the lock and then goes through, and nothing is left behind — no
 * connection holding an old snapshot (stale reads), no COMMIT failing "SQL statements in progress", no
 * SQLITE_BUSY_SNAPSHOT on the next writer. It once retried the waiting statement on the connection the
 * `libsql` driver had left it unfinished on (tests/hrana/write-slot.ts says why that poisons it): every
 * collision of two app instances then surfaced as those failures, for seconds, on whatever stream the
 * pooled connection served next.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient, type Client } from '@libsql/client/web';
import { startHranaServer, type HranaServer } from '../../hrana';
import { tempDir } from '../../helpers/env';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	while (cleanups.length > 0) await cleanups.pop()?.();
});

async function twoWriters(): Promise<{ server: HranaServer; clients: Client[] }> {
	const d = tempDir();
	cleanups.push(d.remove);
	const server = await startHranaServer({ dir: d.dir, autoCreate: true });
	cleanups.push(() => server.close());
	const clients = [0, 1, 2].map(() => createClient({ url: server.urlFor('w') }));
	cleanups.push(() => {
		for (const c of clients) c.close();
	});
	await clients[0]?.execute('CREATE TABLE t (x INTEGER)');
	return { server, clients };
}

const WAITING = {
	execute: (c: Client) => c.execute('INSERT INTO t VALUES (2)'),
	batch: (c: Client) => c.batch(['INSERT INTO t VALUES (2)'], 'write'),
	transaction: async (c: Client) => {
		const tx = await c.transaction('write');
		await tx.execute('INSERT INTO t VALUES (2)');
		await tx.commit();
	}
} as const;

describe('the Hrana test server, two writers on one database', () => {
	for (const [kind, write] of Object.entries(WAITING)) {
		it(`a writer (${kind}) waits for the other's transaction, then every read and write goes on as before`, async () => {
			const { server, clients } = await twoWriters();
			const [a, b, c] = clients;
			if (!a || !b || !c) throw new Error('three clients');
			const holding = await a.transaction('write');
			await holding.execute('INSERT INTO t VALUES (1)');
			const waiting = write(b);
			await vi.waitFor(() => expect(server.stats.writeWaits).toBeGreaterThan(0), { timeout: 10_000 });
			await holding.commit();
			await waiting;

			// Each round: a write batch and a write transaction by one client, then a read by each (its
			// stream may get any pooled connection, the one the waiting writer used included).
			let rows = 2;
			for (let round = 0; round < 6; round++) {
				const writer = clients[round % 3] ?? a;
				await writer.batch([`INSERT INTO t VALUES (${round})`], 'write');
				const tx = await writer.transaction('write');
				await tx.execute(`INSERT INTO t VALUES (${round})`);
				await tx.commit();
				rows += 2;
				for (const reader of clients) expect(Number((await reader.execute('SELECT count(*) AS n FROM t')).rows[0]?.n)).toBe(rows);
			}
		});
	}
});
