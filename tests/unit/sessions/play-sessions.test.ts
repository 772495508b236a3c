import { describe, it, expect, afterEach } from 'vitest';
import { testEnv, type TestEnv } from '../../helpers/env';
import { databaseExists, databaseGone } from '../../helpers/databases';
import { createUser } from '../../../src/lib/server/auth';
import {
	createPlaySession,
	listPlaySessions,
	listAllPlaySessions,
	getPlaySession,
	renamePlaySession,
	deletePlaySession,
	PlaySessionNotFoundError,
	PlaySessionValidationError
} from '../../../src/lib/server/sessions';
import { newId, sessionSchema, sessionDbUrl } from '../../../src/lib/server/db';
import { acceptTurn, sessionsWithWork } from '../../../src/lib/server/turn';
import { mockLlmApp } from '../../helpers/turns';

/** Whether the session's own database exists (a file, or a database on the Hrana test server). */
const hasDatabase = (e: TestEnv, id: string) => databaseExists(sessionDbUrl(e.config.sessionDb.urlTemplate, id));

let env: TestEnv | undefined;
afterEach(async () => {
	await env?.cleanup();
	env = undefined;
});

async function twoUsers(e: TestEnv) {
	const alice = await createUser(e.app, { name: 'alice', password: 'wonderland' });
	const bob = await createUser(e.app, { name: 'bob', password: 'builder-bob' });
	return { alice, bob };
}

describe('play sessions index', () => {
	it('creates a session with a migrated database of its own', async () => {
		env = await testEnv();
		const { alice } = await twoUsers(env);
		const s = await createPlaySession(env.app, { ownerId: alice.id, title: '  北門の夜警  ', language: 'ja' });
		expect(s.title).toBe('北門の夜警');
		expect(s.language).toBe('ja');
		expect(hasDatabase(env, s.id)).toBe(true);
		const meta = await env.app.sessions.use(s.id, (db) => db.db.select().from(sessionSchema.journal));
		expect(meta).toEqual([]);
		expect((await listPlaySessions(env.app, alice.id)).map((x) => x.id)).toEqual([s.id]);
	});

	it('validates title and language', async () => {
		env = await testEnv();
		const { alice } = await twoUsers(env);
		await expect(createPlaySession(env.app, { ownerId: alice.id, title: '   ' })).rejects.toBeInstanceOf(PlaySessionValidationError);
		await expect(createPlaySession(env.app, { ownerId: alice.id, title: 'x'.repeat(101) })).rejects.toBeInstanceOf(
			PlaySessionValidationError
		);
		await expect(createPlaySession(env.app, { ownerId: alice.id, title: 'ok', language: 'fr' })).rejects.toThrow(/ja or en/);
		expect(await listPlaySessions(env.app, alice.id)).toEqual([]);
	});

	it("hides another user's session: get, rename and delete are all 'not found'", async () => {
		env = await testEnv();
		const { alice, bob } = await twoUsers(env);
		const s = await createPlaySession(env.app, { ownerId: alice.id, title: 'Alice only' });
		await expect(getPlaySession(env.app, bob.id, s.id)).rejects.toBeInstanceOf(PlaySessionNotFoundError);
		await expect(renamePlaySession(env.app, bob.id, s.id, 'mine now')).rejects.toBeInstanceOf(PlaySessionNotFoundError);
		await expect(deletePlaySession(env.app, bob.id, s.id)).rejects.toBeInstanceOf(PlaySessionNotFoundError);
		await expect(getPlaySession(env.app, alice.id, '../../etc/passwd')).rejects.toBeInstanceOf(PlaySessionNotFoundError);
		expect(await listPlaySessions(env.app, bob.id)).toEqual([]);
		expect((await getPlaySession(env.app, alice.id, s.id)).title).toBe('Alice only');
		expect(hasDatabase(env, s.id)).toBe(true);
	});

	it('renames and deletes (row and database file)', async () => {
		env = await testEnv();
		const { alice, bob } = await twoUsers(env);
		const s = await createPlaySession(env.app, { ownerId: alice.id, title: 'Old' });
		const other = await createPlaySession(env.app, { ownerId: bob.id, title: 'Bob game' });
		const renamed = await renamePlaySession(env.app, alice.id, s.id, 'New', s.updatedAt.getTime() + 1);
		expect(renamed.title).toBe('New');
		expect(renamed.updatedAt.getTime()).toBeGreaterThan(s.updatedAt.getTime());
		await expect(renamePlaySession(env.app, alice.id, s.id, '')).rejects.toBeInstanceOf(PlaySessionValidationError);
		expect((await getPlaySession(env.app, alice.id, s.id)).title).toBe('New');

		const all = await listAllPlaySessions(env.app);
		expect(all.map((x) => x.ownerName).sort()).toEqual(['alice', 'bob']);

		await deletePlaySession(env.app, alice.id, s.id);
		expect(await listPlaySessions(env.app, alice.id)).toEqual([]);
		expect(await databaseGone(sessionDbUrl(env.config.sessionDb.urlTemplate, s.id))).toBe(true);
		await expect(getPlaySession(env.app, alice.id, s.id)).rejects.toBeInstanceOf(PlaySessionNotFoundError);
		expect((await listPlaySessions(env.app, bob.id)).map((x) => x.id)).toEqual([other.id]);
	});

	it('a session deleted while its turn runs stays deleted: nothing opens (and so re-creates) its database afterwards', async () => {
		const m = await mockLlmApp('openai');
		try {
			const { app } = m;
			const alice = await createUser(app, { name: 'alice', password: 'wonderland' });
			const s = await createPlaySession(app, { ownerId: alice.id, title: 'Short-lived' });
			// The GM's reply waits until the session is gone.
			let asked: () => void = () => undefined;
			const askedNow = new Promise<void>((resolve) => (asked = resolve));
			let answer: () => void = () => undefined;
			const answered = new Promise<void>((resolve) => (answer = resolve));
			m.mock.setHandler(async () => {
				asked();
				await answered;
				return { text: 'Too late.' };
			});
			await app.sessions.use(s.id, (db) => acceptTurn(app, db, { userId: alice.id, text: 'Hello', idempotencyKey: newId() }));
			app.runner.kick(s.id);
			await askedNow;
			await deletePlaySession(app, alice.id, s.id);
			expect(await databaseGone(sessionDbUrl(app.config.sessionDb.urlTemplate, s.id))).toBe(true);
			answer();
			await app.runner.idle();
			await app.images.idle();
			expect(await databaseGone(sessionDbUrl(app.config.sessionDb.urlTemplate, s.id))).toBe(true);
			// A server starting up later resumes the sessions noted as having work: not this one.
			await app.runner.resume();
			await app.runner.idle();
			expect(await databaseGone(sessionDbUrl(app.config.sessionDb.urlTemplate, s.id))).toBe(true);
			// …and forgets it, so the next start-up does not look again.
			expect(await sessionsWithWork(app.control.db)).not.toContain(s.id);
			// Asked for on purpose, it is not there either: nothing is created but by `create`.
			await expect(app.sessions.use(s.id, async () => undefined)).rejects.toThrow(/no database/);
			expect(await databaseGone(sessionDbUrl(app.config.sessionDb.urlTemplate, s.id))).toBe(true);
		} finally {
			await m.cleanup();
		}
	});
});
