/**
 * Standalone Hrana-over-HTTP test server (see server.ts), for running the built app or a benchmark
 * against "remote" databases:
 *   node --import tsx tests/hrana/cli.ts --dir /tmp/dbs --port 8080 [--delay-ms 25]
 * Every database name is served (created on first use): point the app at
 *   KANTERA_CONTROL_DB_URL=http://127.0.0.1:8080/control/  KANTERA_SESSION_DB_URL=http://127.0.0.1:8080/s-{id}/
 * Prints one line `hrana listening on <origin>` once it accepts connections; stops on SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import { startHranaServer } from './server';

const { values } = parseArgs({
	options: {
		dir: { type: 'string' },
		port: { type: 'string', default: '0' },
		host: { type: 'string', default: '127.0.0.1' },
		'delay-ms': { type: 'string', default: '0' }
	}
});

const port = Number(values.port);
const delayMs = Number(values['delay-ms']);
if (!values.dir) {
	console.error('--dir is required: where the database files live');
	process.exit(2);
}
if (!Number.isInteger(port) || port < 0 || port > 65_535 || !Number.isFinite(delayMs) || delayMs < 0) {
	console.error('--port must be a port number and --delay-ms a number of milliseconds');
	process.exit(2);
}

const server = await startHranaServer({ dir: values.dir, port, host: values.host, delayMs, autoCreate: true });
console.log(`hrana listening on ${server.origin}`);

const stop = () => {
	void server.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
