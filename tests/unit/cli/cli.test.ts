/**
 * The CLI end to end: spawns `node bin/kantera.js` (tsx and all) against a temp KANTERA_DATA_DIR,
 * then checks the databases through the library.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { tempDir } from '../../helpers/env';
import { parseConfig } from '../../../src/lib/server/config';
import { createApp } from '../../../src/lib/server/app';
import { authenticateToken } from '../../../src/lib/server/auth';
import { listPlaySessions } from '../../../src/lib/server/sessions';
import { kantera, kanteraInProcess } from '../../helpers/cli';

const lastWord = (text: string) => text.trim().split(/\s+/).at(-1) ?? '';

/**
 * A spawn of the real binary compiles the server code through tsx first: about a second on an idle
 * machine, 8–13 s at a load average of 20 on two cores. The tests spawn once each (the long tables run
 * in-process) and get room for that.
 */
const SPAWNING_TEST_MS = 60_000;

describe('kantera CLI', { timeout: SPAWNING_TEST_MS }, () => {
	const tmp = tempDir('kantera-cli-');
	const dir = tmp.dir;
	afterAll(() => tmp.remove());

	let token = '';
	let sessionId = '';

	beforeAll(async () => {
		const created = await kantera(dir, ['user', 'create', '--name', 'alice', '--password-stdin'], 'correct horse\n');
		expect(created.stderr).toBe('');
		expect(created.code).toBe(0);
		expect(created.stdout).toMatch(/admin alice/);
	}, SPAWNING_TEST_MS);

	it('creates a user from stdin whose password then works (and is never echoed)', async () => {
		const app = await createApp(parseConfig({ KANTERA_DATA_DIR: dir }));
		try {
			const { verifyCredentials } = await import('../../../src/lib/server/auth');
			await expect(verifyCredentials(app, { name: 'alice', password: 'correct horse' })).resolves.toMatchObject({
				name: 'alice',
				isAdmin: true
			});
		} finally {
			await app.close();
		}
		const again = await kantera(dir, ['user', 'create', '--name', 'alice', '--password-stdin'], 'another password\n');
		expect(again.code).toBe(1);
		expect(again.stderr).toMatch(/already taken/);
		expect(again.stderr + again.stdout).not.toContain('another password');
	});

	it('sets a tier by name, and refuses an unknown tier or account', async () => {
		const done = await kantera(dir, ['user', 'set-tier', 'alice', 'plus']);
		expect([done.code, done.stdout.trim()]).toEqual([0, 'alice is now on the plus tier']);
		const app = await createApp(parseConfig({ KANTERA_DATA_DIR: dir }));
		try {
			const { getUserByName } = await import('../../../src/lib/server/auth');
			expect((await getUserByName(app, 'alice')).tier).toBe('plus');
		} finally {
			await app.close();
		}
		// The refusals run in-process, like the other error tables: the real binary's exit codes 1 and 2
		// are checked in the tests around this one.
		const badTier = await kanteraInProcess(dir, ['user', 'set-tier', 'alice', 'gold']);
		expect([badTier.code, badTier.stderr]).toEqual([2, expect.stringMatching(/tier must be free or plus/)]);
		const nobody = await kanteraInProcess(dir, ['user', 'set-tier', 'nobody', 'plus']);
		expect([nobody.code, nobody.stderr]).toEqual([1, expect.stringMatching(/no user named "nobody"/)]);
		expect((await kanteraInProcess(dir, ['user', 'set-tier', 'alice', 'free'])).code).toBe(0);
	});

	it('prints a working token as the last word of token create', async () => {
		const run = await kantera(dir, ['token', 'create', '--user', 'alice', '--name', 'ci', '--expires-days', '7']);
		expect(run.code).toBe(0);
		token = lastWord(run.stdout);
		expect(token).toMatch(/^kt_/);
		const app = await createApp(parseConfig({ KANTERA_DATA_DIR: dir }));
		try {
			expect((await authenticateToken(app, token)).name).toBe('alice');
		} finally {
			await app.close();
		}
	});

	it('prints the new session id as the last word of sessions create; the owner defaults to the admin', async () => {
		const run = await kantera(dir, ['sessions', 'create', '--title', '北門の夜警', '--language', 'ja']);
		expect(run.code).toBe(0);
		sessionId = lastWord(run.stdout);
		expect(sessionId).toMatch(/^[a-z2-7]{20}$/);
		const app = await createApp(parseConfig({ KANTERA_DATA_DIR: dir }));
		try {
			const alice = await authenticateToken(app, token);
			const sessions = await listPlaySessions(app, alice.id);
			expect(sessions.map((s) => [s.id, s.title, s.language])).toEqual([[sessionId, '北門の夜警', 'ja']]);
		} finally {
			await app.close();
		}
		const listed = await kanteraInProcess(dir, ['sessions', 'list', '--json', '--owner', 'alice']);
		expect(listed.code).toBe(0);
		const rows: unknown = JSON.parse(listed.stdout);
		expect(rows).toEqual([expect.objectContaining({ id: sessionId, title: '北門の夜警', owner: 'alice', language: 'ja' })]);
	});

	it('exits 2 on a usage error from the real binary', async () => {
		const run = await kantera(dir, ['sessions', 'create', '--bogus']);
		expect(run.code).toBe(2);
		expect(run.stderr).toMatch(/Unknown option '--bogus'/);
		expect(run.stderr).toMatch(/Usage: kantera sessions create/);
	});

	it('exits 2 on usage errors and 1 on failures, with a message on stderr', async () => {
		const usage: string[][] = [
			[],
			['frobnicate'],
			['sessions', 'create', '--bogus'],
			['sessions', 'create'],
			['user', 'create', '--name', 'bob'],
			['token', 'create', '--user']
		];
		for (const args of usage) {
			const run = await kanteraInProcess(dir, args);
			expect({ args, code: run.code }).toEqual({ args, code: 2 });
			expect(run.stderr).toMatch(/Usage: kantera/);
			expect(run.stdout).toBe('');
		}
		const failures: [string[], string | undefined, RegExp][] = [
			[['user', 'create', '--name', 'bob', '--password-stdin'], 'short\n', /at least 8/],
			[['user', 'create', '--name', 'b/o', '--password-stdin'], 'long enough\n', /username may use only/],
			[['token', 'create', '--user', 'nobody'], undefined, /no user named "nobody"/],
			[['token', 'create', '--user', 'alice', '--expires-days', 'soon'], undefined, /Expiry must be/],
			[['sessions', 'create', '--title', 'x', '--language', 'fr'], undefined, /ja or en/],
			[['sessions', 'create', '--title', 'x', '--owner', 'nobody'], undefined, /no user named/]
		];
		for (const [args, stdin, message] of failures) {
			const run = await kanteraInProcess(dir, args, stdin);
			expect({ args, code: run.code }).toEqual({ args, code: 1 });
			expect(run.stderr).toMatch(message);
		}
		const badConfig = await kanteraInProcess(dir, ['sessions', 'list'], undefined, { KANTERA_AUTH_SESSION_DAYS: 'never' });
		expect(badConfig.code).toBe(1);
		expect(badConfig.stderr).toMatch(/KANTERA_AUTH_SESSION_DAYS/);
	});

	it('shows help on stdout with exit 0', async () => {
		const run = await kanteraInProcess(dir, ['help']);
		expect(run.code).toBe(0);
		for (const c of ['user create', 'token create', 'sessions create', 'sessions list']) expect(run.stdout).toContain(c);
		const one = await kanteraInProcess(dir, ['sessions', 'create', '--help']);
		expect(one.code).toBe(0);
		expect(one.stdout).toMatch(/--title T/);
	});

	it('refuses sessions create when there is no user to own it', async () => {
		const empty = tempDir('kantera-cli-empty-');
		try {
			const run = await kanteraInProcess(empty.dir, ['sessions', 'create', '--title', 'Lonely']);
			expect(run.code).toBe(1);
			expect(run.stderr).toMatch(/no users yet/);
		} finally {
			empty.remove();
		}
	});
});
