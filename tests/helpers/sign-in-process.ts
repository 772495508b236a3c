/**
 * A Kantera app in a process of its own that tries to sign in many times at once, for the throttle's
 * test across processes. It prints `{"event":"ready"}` once its app is open, waits for a line on stdin
 * (so both processes start together), makes its attempts all at once and prints
 * `{"event":"done","checks":n,"outcomes":[…]}`: how many passwords it checked, and how each attempt ended.
 *
 *   node --import tsx tests/helpers/sign-in-process.ts <name> <password> <address> <now> <attempts>
 * with KANTERA_DATA_DIR (and the database URLs, if any) in the environment, like the server.
 */
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { parseConfig } from '../../src/lib/server/config';
import { createApp } from '../../src/lib/server/app';
import { configureLog } from '../../src/lib/server/ops';
import { countingAttempts } from './sign-in-attempts';

const [name = '', password = '', address = '', now = '', attempts = ''] = process.argv.slice(2);
configureLog({ sink: (line) => console.error(line) });
const app = await createApp(parseConfig(process.env), { background: false });
try {
	const input = createInterface({ input: process.stdin });
	const go = once(input, 'line');
	console.log(JSON.stringify({ event: 'ready' }));
	await go;
	input.close();
	const { checks, outcomes } = await countingAttempts(app, { name, password, address, now: Number(now), attempts: Number(attempts) });
	console.log(JSON.stringify({ event: 'done', checks, outcomes }));
} finally {
	await app.close();
}
