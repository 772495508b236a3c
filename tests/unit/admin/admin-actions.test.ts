/**
 * Administrators' acts on accounts, on a real control database and real session databases: suspend holds against
 * every way in (password, cookie, API token, provider), revoking ends every sign-in, a reset link works once,
 * deleting removes the account with its sessions (databases and files) and presets, and each act is in the audit log.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { testEnv, type TestEnv } from '../../helpers/env';
import {
	AccountSuspendedError,
	authenticateToken,
	createCookieSession,
	createToken,
	createUser,
	InvalidTokenError,
	linkIdentity,
	passwordResetUser,
	resetPassword,
	signInWithProvider,
	validateCookieSession,
	verifyCredentials,
	InvalidCredentialsError,
	type AuthUser
} from '../../../src/lib/server/auth';
import {
	AdminActError,
	adminDeleteAccount,
	adminPasswordReset,
	adminRevokeSignIns,
	adminSetTier,
	adminSuspend
} from '../../../src/lib/server/api';
import { auditCsv, listAudit } from '../../../src/lib/server/audit';
import { controlSchema } from '../../../src/lib/server/db';
import { listPlaySessions, startSession } from '../../../src/lib/server/sessions';
import { createFromInput } from '../../../src/lib/server/presets';
import { presetInput } from '../presets/factory';

let env: TestEnv;
let admin: AuthUser;
let mallory: AuthUser;
const PASSWORD = 'correct horse battery';

beforeEach(async () => {
	env = await testEnv();
	admin = await createUser(env.app, { name: 'root', password: PASSWORD }, { viaOperator: true, admin: true });
	mallory = await createUser(env.app, { name: 'mallory', password: PASSWORD }, { viaOperator: true });
});
afterEach(async () => {
	await env.cleanup();
});

const rejection = (promise: Promise<unknown>) =>
	promise.then(
		() => undefined,
		(e: unknown) => e
	);

describe('suspending an account', () => {
	it('ends its sign-ins and refuses every way back in until lifted; its data is kept', async () => {
		const { app } = env;
		const cookie = await createCookieSession(app, mallory.id);
		const { token } = await createToken(app, mallory.id, 'script');
		const profile = { provider: 'github' as const, subject: '4242', label: 'mallory', nameHints: ['mallory'] };
		await linkIdentity(app, mallory.id, profile);
		const { session } = await startSession(app, { ownerId: mallory.id, title: 'Kept' });

		await adminSuspend(app, admin, mallory.id, true);
		expect(await validateCookieSession(app, cookie.token)).toBeNull();
		expect(await rejection(authenticateToken(app, token))).toBeInstanceOf(InvalidTokenError);
		expect(await rejection(verifyCredentials(app, { name: 'mallory', password: PASSWORD }))).toBeInstanceOf(AccountSuspendedError);
		// A wrong password says nothing of the suspension.
		expect(await rejection(verifyCredentials(app, { name: 'mallory', password: 'wrong password!' }))).toBeInstanceOf(
			InvalidCredentialsError
		);
		expect(await rejection(signInWithProvider(app, profile))).toBeInstanceOf(AccountSuspendedError);
		// A cookie made after the suspension (a sign-in racing it) is refused too.
		expect(await validateCookieSession(app, (await createCookieSession(app, mallory.id)).token)).toBeNull();
		expect((await listPlaySessions(app, mallory.id)).map((s) => s.id)).toEqual([session.id]);

		await adminSuspend(app, admin, mallory.id, false);
		expect((await verifyCredentials(app, { name: 'mallory', password: PASSWORD })).id).toBe(mallory.id);
		expect((await signInWithProvider(app, profile)).user.id).toBe(mallory.id);
	});

	it('an admin cannot act on their own account here, nor on nobody', async () => {
		const { app } = env;
		expect(await rejection(adminSuspend(app, admin, admin.id, true))).toMatchObject({ code: 'admin.notYourself' });
		expect(await rejection(adminDeleteAccount(app, admin, admin.id))).toBeInstanceOf(AdminActError);
		expect(await rejection(adminRevokeSignIns(app, admin, 'no-such-user'))).toMatchObject({ code: 'admin.noSuchUser' });
	});
});

describe('signing out everywhere and resetting a password', () => {
	it('revoking ends cookies and tokens but leaves the password', async () => {
		const { app } = env;
		const cookie = await createCookieSession(app, mallory.id);
		const { token } = await createToken(app, mallory.id, 'script');
		await adminRevokeSignIns(app, admin, mallory.id);
		expect(await validateCookieSession(app, cookie.token)).toBeNull();
		expect(await rejection(authenticateToken(app, token))).toBeInstanceOf(InvalidTokenError);
		expect((await verifyCredentials(app, { name: 'mallory', password: PASSWORD })).id).toBe(mallory.id);
	});

	it('a reset link works once, within its day, and only the newest one; it ends every sign-in', async () => {
		const { app } = env;
		const first = await adminPasswordReset(app, admin, mallory.id);
		const second = await adminPasswordReset(app, admin, mallory.id);
		const token = second.path.split('/').at(-1) ?? '';
		expect(await passwordResetUser(app, first.path.split('/').at(-1))).toBeNull();
		expect((await passwordResetUser(app, token))?.name).toBe('mallory');
		expect(await passwordResetUser(app, token, Date.now() + 25 * 3600_000)).toBeNull();
		const cookie = await createCookieSession(app, mallory.id);

		await expect(resetPassword(app, token, 'short')).rejects.toThrow();
		expect((await resetPassword(app, token, 'a brand new secret'))?.id).toBe(mallory.id);
		expect(await resetPassword(app, token, 'and another one!')).toBeNull();
		expect(await validateCookieSession(app, cookie.token)).toBeNull();
		expect(await rejection(verifyCredentials(app, { name: 'mallory', password: PASSWORD }))).toBeInstanceOf(InvalidCredentialsError);
		expect((await verifyCredentials(app, { name: 'mallory', password: 'a brand new secret' })).id).toBe(mallory.id);
		// Only the digest is stored.
		const rows = await app.control.db.select().from(controlSchema.passwordResets);
		expect(rows.map((r) => r.tokenHash)).not.toContain(token);
	});

	it('two submissions of one link at once: exactly one sets the password', async () => {
		const { app } = env;
		const token = (await adminPasswordReset(app, admin, mallory.id)).path.split('/').at(-1) ?? '';
		const results = await Promise.all([resetPassword(app, token, 'first password!'), resetPassword(app, token, 'second password')]);
		expect(results.filter((r) => r !== null)).toHaveLength(1);
	});
});

describe('deleting an account', () => {
	it('removes its sessions (databases too), presets and sign-ins; other accounts are untouched', async () => {
		const { app } = env;
		const { session } = await startSession(app, { ownerId: mallory.id, title: 'Doomed' });
		const { session: kept } = await startSession(app, { ownerId: admin.id, title: 'Kept' });
		const preset = await createFromInput(app, mallory, presetInput());
		await createToken(app, mallory.id, 'script');
		const files = () => readdirSync(env.dir, { recursive: true }).map(String);
		expect(files().some((f) => f.includes(session.id))).toBe(true);

		await adminDeleteAccount(app, admin, mallory.id);
		const users = await app.control.db.select().from(controlSchema.users);
		expect(users.map((u) => u.name)).toEqual(['root']);
		expect(
			await app.control.db.select().from(controlSchema.playSessions).where(eq(controlSchema.playSessions.ownerId, mallory.id))
		).toEqual([]);
		expect(await app.control.db.select().from(controlSchema.presets).where(eq(controlSchema.presets.id, preset.id))).toEqual([]);
		expect(await app.control.db.select().from(controlSchema.apiTokens)).toEqual([]);
		expect(files().some((f) => f.includes(session.id))).toBe(false);
		expect((await listPlaySessions(app, admin.id)).map((s) => s.id)).toEqual([kept.id]);
		expect(existsSync(env.dir)).toBe(true);
	});
});

describe('the audit log', () => {
	it('records who did what to whom, newest first, and exports it as CSV', async () => {
		const { app } = env;
		await adminSetTier(app, admin, mallory.id, 'plus');
		await adminSuspend(app, admin, mallory.id, true);
		await adminPasswordReset(app, admin, mallory.id);
		const log = await listAudit(app.control.db);
		expect(log.map((e) => [e.adminName, e.action, e.targetName])).toEqual([
			['root', 'password_reset', 'mallory'],
			['root', 'suspend', 'mallory'],
			['root', 'set_tier', 'mallory']
		]);
		expect(log[2]?.detail).toBe('free → plus');
		expect((await listAudit(app.control.db, { before: log[1]?.id })).map((e) => e.action)).toEqual(['set_tier']);
		const csv = (await auditCsv(app.control.db)).trim().split('\r\n');
		expect(csv[0]).toBe('at,admin,action,target_kind,target_id,target_name,detail');
		expect(csv.slice(1).map((line) => line.split(',')[2])).toEqual(['set_tier', 'suspend', 'password_reset']);
		// The log outlives the account it names.
		await adminDeleteAccount(app, admin, mallory.id);
		expect((await listAudit(app.control.db)).map((e) => e.action)).toContain('set_tier');
	});
});
