/**
 * A Kantera app in a process of its own, for tests that need a second server on the same databases:
 * a crash mid-turn (the test kills it with SIGKILL, so nothing gets to clean up) or budgets shared
 * across processes. It queues one player turn in each session given and prints one JSON line per
 * step: `{"event":"running","turnIds":[…]}` once every turn has left the queue, then
 * `{"event":"idle"}` when all have finished, and exits.
 *
 *   node --import tsx tests/helpers/turn-process.ts <userId> <sessionId>…
 * with KANTERA_DATA_DIR and the LLM variables (OPENAI_BASE_URL…) in the environment, like the server.
 * Its turn leases last LEASE_MS, so a test sees a dead runner's lease run out quickly.
 */
import { inArray } from 'drizzle-orm';
import { parseConfig } from '../../src/lib/server/config';
import { createApp } from '../../src/lib/server/app';
import { newId, sessionSchema } from '../../src/lib/server/db';
import { acceptTurn } from '../../src/lib/server/turn';
import { composeMission, ensureMission, writeSettings } from '../../src/lib/server/session-setup';
import { configureLog } from '../../src/lib/server/ops';

const LEASE_MS = 1_000;
const RENEW_MS = 250;
const POLL_MS = 20;

const [userId, ...sessionIds] = process.argv.slice(2);
if (!userId || sessionIds.length === 0) {
	console.error('usage: turn-process.ts <userId> <sessionId>…');
	process.exit(2);
}
const say = (line: Record<string, unknown>) => console.log(JSON.stringify(line));

const app = await createApp(parseConfig(process.env), { turnLease: { leaseMs: LEASE_MS, renewMs: RENEW_MS } });
// Stdout carries this process's own lines to the test: the app's log lines go to stderr.
configureLog({ sink: (line) => console.error(line) });
const turnIds: string[] = [];
for (const sessionId of sessionIds) {
	await app.sessions.create(sessionId);
	await app.sessions.use(sessionId, (s) =>
		s.write(async (tx) => {
			await ensureMission(tx, composeMission('en'));
			await writeSettings(tx, { language: 'en' });
		})
	);
	const accepted = await app.sessions.use(sessionId, (s) =>
		acceptTurn(app, s, { userId, text: 'I wait for the storm.', idempotencyKey: `process-${newId(12)}` })
	);
	turnIds.push(accepted.turnId);
}
for (const sessionId of sessionIds) app.runner.kick(sessionId);

const queued = async () => {
	let n = 0;
	for (const sessionId of sessionIds) {
		const rows = await app.sessions.use(sessionId, (s) =>
			s.db.select({ status: sessionSchema.turns.status }).from(sessionSchema.turns).where(inArray(sessionSchema.turns.id, turnIds))
		);
		n += rows.filter((r) => r.status === 'accepted').length;
	}
	return n;
};
while ((await queued()) > 0) await new Promise((r) => setTimeout(r, POLL_MS));
say({ event: 'running', turnIds });
await app.runner.idle();
say({ event: 'idle' });
await app.close();
