/**
 * The operator's account commands (`user suspend|unsuspend|sign-out|reset-password|delete`): the admin page refuses
 * acting on your own account, so these are how a server's only admin is helped. Run in-process (one spawn of the
 * real binary is in cli.test.ts); the effects are read back through the library, and each act is in the audit log.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { tempDir } from '../../helpers/env';
import { parseConfig } from '../../../src/lib/server/config';
import { createApp, type App } from '../../../src/lib/server/app';
import {
	authenticateToken,
	createToken,
	createUser,
	passwordResetUser,
	verifyCredentials,
	getUserByName
} from '../../../src/lib/server/auth';
import { listAudit } from '../../../src/lib/server/audit';
import { kanteraInProcess } from '../../helpers/cli';

describe('kantera user (operator account acts)', () => {
	const tmp = tempDir('kantera-cli-accounts-');
	let app: App;
	let token = '';

	beforeAll(async () => {
		app = await createApp(parseConfig({ KANTERA_DATA_DIR: tmp.dir }));
		const root = await createUser(app, { name: 'root', password: 'correct horse' }, { viaOperator: true, admin: true });
		token = (await createToken(app, root.id, 'ci')).token;
	});
	afterAll(async () => {
		await app.close();
		tmp.remove();
	});

	const run = (...args: string[]) => kanteraInProcess(tmp.dir, ['user', ...args]);

	it('suspends the only admin (sign-in and tokens refused) and lifts it', async () => {
		const done = await run('suspend', 'root');
		expect([done.code, done.stdout.trim()]).toEqual([0, 'root is suspended; every sign-in and token was ended']);
		await expect(verifyCredentials(app, { name: 'root', password: 'correct horse' })).rejects.toThrow(/suspended/);
		await expect(authenticateToken(app, token)).rejects.toThrow();
		expect((await run('unsuspend', 'root')).code).toBe(0);
		await expect(verifyCredentials(app, { name: 'root', password: 'correct horse' })).resolves.toMatchObject({ name: 'root' });
	});

	it('prints a reset link that works once', async () => {
		const done = await run('reset-password', 'root');
		expect(done.code).toBe(0);
		const path = /\/reset-password\/(\S+)$/.exec(done.stdout.trim());
		expect(path).not.toBeNull();
		expect((await passwordResetUser(app, path?.[1]))?.name).toBe('root');
	});

	it('deletes only when the name is confirmed, and writes every act to the audit log as the operator', async () => {
		await createUser(app, { name: 'mallory', password: 'correct horse' }, { viaOperator: true });
		const unconfirmed = await run('delete', 'mallory', '--confirm', 'malory');
		expect([unconfirmed.code, unconfirmed.stderr]).toEqual([2, expect.stringMatching(/nothing deleted/)]);
		await expect(getUserByName(app, 'mallory')).resolves.toMatchObject({ name: 'mallory' });
		expect((await run('delete', 'mallory', '--confirm', 'mallory')).code).toBe(0);
		await expect(getUserByName(app, 'mallory')).rejects.toThrow(/no user named/);
		const nobody = await run('sign-out', 'nobody');
		expect([nobody.code, nobody.stderr]).toEqual([1, expect.stringMatching(/no user named "nobody"/)]);

		const log = await listAudit(app.control.db);
		expect(log.map((r) => [r.adminName, r.action, r.targetName])).toEqual([
			['operator (CLI)', 'delete_account', 'mallory'],
			['operator (CLI)', 'password_reset', 'root'],
			['operator (CLI)', 'unsuspend', 'root'],
			['operator (CLI)', 'suspend', 'root']
		]);
	});
});
