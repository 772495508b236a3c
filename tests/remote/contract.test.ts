/**
 * The remote project really is remote: its apps reach every database through @libsql/client over HTTP
 * (`http://` and `libsql://…?tls=0`), and `https://` / `libsql://` with TLS work too (a CLI process
 * against the Hrana test server behind a self-signed certificate it is told to trust).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { testEnv, tempDir, type TestEnv } from '../helpers/env';
import { databaseExists, isRemoteRun } from '../helpers/databases';
import { kantera } from '../helpers/cli';
import { createUser } from '../../src/lib/server/auth';
import { createPlaySession } from '../../src/lib/server/sessions';
import { sessionDbUrl } from '../../src/lib/server/db';
import { startHranaServer, type HranaServer } from '../hrana';

describe('remote mode', () => {
	let env: TestEnv;
	beforeAll(async () => {
		env = await testEnv();
	});
	afterAll(async () => {
		await env.cleanup();
	});

	it('puts the control and session databases on the Hrana server, not in the data dir', async () => {
		expect(isRemoteRun()).toBe(true);
		expect(env.config.controlDb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
		expect(env.config.sessionDb.urlTemplate).toMatch(/^libsql:\/\/127\.0\.0\.1:\d+\/.*\{id\}.*\?tls=0$/);
		const alice = await createUser(env.app, { name: 'alice', password: 'wonderland' });
		const s = await createPlaySession(env.app, { ownerId: alice.id, title: 'Remote' });
		expect(databaseExists(sessionDbUrl(env.config.sessionDb.urlTemplate, s.id))).toBe(true);
		expect(databaseExists(`file:${path.join(env.dir, 'sessions', `${s.id}.db`)}`)).toBe(false);
	});
});

// Three CLI processes (tsx start-up each): slow on a busy machine.
describe('https:// and libsql:// with TLS', { timeout: 120_000 }, () => {
	let server: HranaServer;
	const d = tempDir();
	let certFile = '';
	beforeAll(async () => {
		// A throw-away certificate for 127.0.0.1, trusted by the CLI process through NODE_EXTRA_CA_CERTS.
		certFile = path.join(d.dir, 'cert.pem');
		const keyFile = path.join(d.dir, 'key.pem');
		execFileSync(
			'openssl',
			[
				'req',
				'-x509',
				'-newkey',
				'rsa:2048',
				'-nodes',
				'-keyout',
				keyFile,
				'-out',
				certFile,
				'-days',
				'1',
				'-subj',
				'/CN=127.0.0.1',
				'-addext',
				'subjectAltName=IP:127.0.0.1'
			],
			{ stdio: 'ignore' }
		);
		server = await startHranaServer({
			dir: path.join(d.dir, 'dbs'),
			autoCreate: true,
			tls: { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') }
		});
	});
	afterAll(async () => {
		await server.close();
		d.remove();
	});

	it('creates a user and a session through the CLI over TLS', async () => {
		const port = new URL(server.origin).port;
		const env = {
			NODE_EXTRA_CA_CERTS: certFile,
			KANTERA_CONTROL_DB_URL: `https://127.0.0.1:${port}/tls-control/`,
			KANTERA_SESSION_DB_URL: `libsql://127.0.0.1:${port}/tls-s-{id}/`
		};
		const user = await kantera(d.dir, ['user', 'create', '--name', 'alice', '--password-stdin'], 'wonderland\n', env);
		expect(user.stderr).toBe('');
		expect(user.code).toBe(0);
		const created = await kantera(d.dir, ['sessions', 'create', '--title', 'Over TLS', '--world', 'iron-walkers'], undefined, env);
		expect(created.stderr).toBe('');
		expect(created.code).toBe(0);
		const id = created.stdout.trim().split(/\s+/).at(-1) ?? '';
		expect(server.hasDatabase('tls-control')).toBe(true);
		expect(server.hasDatabase(`tls-s-${id}`)).toBe(true);
		const listed = await kantera(d.dir, ['sessions', 'list', '--json'], undefined, env);
		expect(listed.stderr).toBe('');
		expect(listed.stdout).toContain('Over TLS');
	});
});
