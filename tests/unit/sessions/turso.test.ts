/**
 * Turso databases per session, against the FAKE Turso Platform API (tests/turso-fake, the only fake
 * service in the tests) whose databases really exist on the Hrana test server: the session's records
 * are written and read through @libsql/client over HTTP, with the group token the app minted.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { createApp, type App } from '../../../src/lib/server/app';
import { parseConfig } from '../../../src/lib/server/config';
import { createUser, type AuthUser } from '../../../src/lib/server/auth';
import { controlSchema, sessionSchema } from '../../../src/lib/server/db';
import { TursoPlacement, SessionDatabaseError, ORPHAN_AFTER_MS } from '../../../src/lib/server/db/turso';
import { deletePlaySession, listPlaySessions, startSession } from '../../../src/lib/server/sessions';
import { startHranaServer, type HranaServer } from '../../hrana';
import { startTursoFake, type TursoFake } from '../../turso-fake/server';
import { tempDir } from '../../helpers/env';
import { runDoctor } from '../../../src/lib/server/cli/doctor';
import { inRequest, ProcessScheduler, RequestScheduler, type Scheduler } from '../../../src/lib/server/jobs';

interface World {
	app: App;
	env: Record<string, string>;
	fake: TursoFake;
	hrana: HranaServer;
	turso: TursoPlacement;
	alice: AuthUser;
	cleanup: () => Promise<void>;
}

let w: World | undefined;
afterEach(async () => {
	await w?.cleanup();
	w = undefined;
});

async function world(): Promise<World> {
	const d = tempDir();
	// Set once the fake is up; the hrana server it needs asks it about tokens.
	let fake: TursoFake | undefined = undefined;
	// Like a Turso database URL: no valid group token, no access.
	const hrana = await startHranaServer({
		dir: `${d.dir}/hrana`,
		autoCreate: false,
		authorize: (_db, token) => token !== undefined && fake?.tokens.has(token) === true
	});
	fake = await startTursoFake({ hrana });
	const env = {
		KANTERA_DATA_DIR: d.dir,
		KANTERA_TURSO_ORG: fake.org,
		KANTERA_TURSO_GROUP: fake.group,
		KANTERA_TURSO_API_TOKEN: fake.apiToken,
		KANTERA_TURSO_API_URL: fake.url,
		// Production default is libsql://{hostname}; the test routes each hostname to the Hrana server by path.
		KANTERA_SESSION_DB_URL: `${hrana.origin}/{hostname}/`
	};
	const cfg = parseConfig(env);
	const app = await createApp(cfg, { turso: { retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1 } }, background: false });
	const turso = app.sessions.placement;
	if (!(turso instanceof TursoPlacement)) throw new Error('expected the Turso placement');
	const alice = await createUser(app, { name: 'alice', password: 'wonderland' });
	const f = fake;
	return {
		app,
		env,
		fake: f,
		hrana,
		turso,
		alice,
		async cleanup() {
			await app.close();
			await f.close();
			await hrana.close();
			d.remove();
		}
	};
}

const recorded = (app: App) => app.control.db.select().from(controlSchema.sessionDatabases);

describe('Turso databases per session', { timeout: 120_000 }, () => {
	it('creating a session creates its database through the Platform API; deleting the session deletes it', async () => {
		w = await world();
		const { app, fake, hrana, alice } = w;
		const { session } = await startSession(app, { ownerId: alice.id, title: 'On Turso', worldId: 'sword-and-sorcery', language: 'en' });
		const name = `kantera-${session.id}`;
		const db = fake.databases.get(name);
		expect(db?.group).toBe(fake.group);
		expect(hrana.hasDatabase(db?.hostname ?? '')).toBe(true);
		expect(fake.tokens.size).toBe(1);
		expect(await recorded(app)).toEqual([
			expect.objectContaining({ sessionId: session.id, name, status: 'ready', hostname: db?.hostname })
		]);
		// The world was seeded into the Turso database, over HTTP with the minted group token.
		const docs = await app.sessions.use(session.id, (s) => s.db.select().from(sessionSchema.documents));
		expect(docs.length).toBeGreaterThan(0);
		expect(hrana.stats.byDatabase.get(db?.hostname ?? '')).toBeGreaterThan(0);

		await deletePlaySession(app, alice.id, session.id);
		expect(fake.databases.has(name)).toBe(false);
		expect(hrana.hasDatabase(db?.hostname ?? '')).toBe(false);
		expect(await recorded(app)).toEqual([]);
		expect(fake.calls).toContain(`DELETE /databases/${name}`);
	});

	it('a create that keeps failing leaves no session, no database and no record', async () => {
		w = await world();
		const { app, fake, alice } = w;
		fake.fail('create', { status: 503, times: 3 });
		await expect(startSession(app, { ownerId: alice.id, title: 'Doomed' })).rejects.toBeInstanceOf(SessionDatabaseError);
		expect(fake.calls.filter((c) => c === 'POST /databases')).toHaveLength(3);
		expect(fake.databases.size).toBe(0);
		expect(await listPlaySessions(app, alice.id)).toEqual([]);
		expect(await recorded(app)).toEqual([]);
	});

	it('a create whose answer was lost is retried and adopts the database it made (one database, not two)', async () => {
		w = await world();
		const { app, fake, alice } = w;
		fake.fail('create', { status: 'lost' });
		const { session } = await startSession(app, { ownerId: alice.id, title: 'Flaky network' });
		expect(fake.databases.size).toBe(1);
		expect(fake.databases.has(`kantera-${session.id}`)).toBe(true);
		expect(await app.sessions.use(session.id, (s) => s.db.select().from(sessionSchema.journal))).toEqual([]);
	});

	it('a delete that fails is recorded, reported as an orphan and swept later', async () => {
		w = await world();
		const { app, fake, turso, alice } = w;
		const { session } = await startSession(app, { ownerId: alice.id, title: 'Sticky' });
		const name = `kantera-${session.id}`;
		fake.fail('delete', { status: 500, times: 3 });
		// The player's delete succeeds: the session is gone for them at once.
		await deletePlaySession(app, alice.id, session.id);
		expect(await listPlaySessions(app, alice.id)).toEqual([]);
		expect(fake.databases.has(name)).toBe(true);
		const [row] = await recorded(app);
		expect(row).toEqual(expect.objectContaining({ name, status: 'deleting', lastError: expect.stringMatching(/500/) }));
		expect((await turso.orphans()).pending.map((p) => p.name)).toEqual([name]);
		const doctor = await runDoctor(w.env, { timeoutMs: 2_000, repair: false });
		expect(doctor.filter((f) => f.area === 'orphaned databases')).toEqual([
			expect.objectContaining({
				status: 'warn',
				message: expect.stringMatching(new RegExp(`${name} .*waiting to be deleted after 1 attempt.*500`))
			})
		]);
		expect(doctor.find((f) => f.area === 'session databases')).toMatchObject({ status: 'info', message: 'no play sessions yet' });

		const report = await turso.sweep();
		expect(report).toEqual({ deleted: [name], failed: [] });
		expect(fake.databases.has(name)).toBe(false);
		expect(await recorded(app)).toEqual([]);
		expect(await turso.orphans()).toEqual({ pending: [], untracked: [] });
	});

	it('finds databases left by a crash: recorded without a session, or in the group with nothing recording them', async () => {
		w = await world();
		const { app, fake, turso, alice } = w;
		const { session } = await startSession(app, { ownerId: alice.id, title: 'Crash' });
		// As if the process died between creating the database and listing the session.
		await app.control.db.delete(controlSchema.playSessions).where(eq(controlSchema.playSessions.id, session.id));
		await app.control.db.update(controlSchema.sessionDatabases).set({ updatedAt: Date.now() - ORPHAN_AFTER_MS - 1 });
		fake.databases.set('kantera-untracked0000000000', {
			name: 'kantera-untracked0000000000',
			group: fake.group,
			hostname: 'x.turso.fake',
			dbId: 'x'
		});
		const orphans = await turso.orphans();
		expect(orphans.pending.map((p) => p.sessionId)).toEqual([session.id]);
		expect(orphans.untracked).toEqual(['kantera-untracked0000000000']);
		expect((await turso.sweep()).deleted).toEqual([`kantera-${session.id}`]);
		expect(fake.databases.has(`kantera-${session.id}`)).toBe(false);
	});

	it('refuses a session id it has no database for, instead of creating one on the fly', async () => {
		w = await world();
		await expect(w.app.sessions.use('aaaaaaaaaaaaaaaaaaaa', async () => undefined)).rejects.toThrow(/no database on Turso/);
		expect(w.fake.calls.filter((c) => c.startsWith('POST /databases'))).toEqual([]);
	});
});

describe('the Turso sweeper, a job of the scheduler', { timeout: 120_000 }, () => {
	const SWEEP_EVERY_MS = 150;

	/** A session whose database's deletion failed: the player's delete went through, the database waits for the sweeper. */
	async function leftover(world: World, title: string): Promise<string> {
		const { session } = await startSession(world.app, { ownerId: world.alice.id, title });
		world.fake.fail('delete', { status: 500, times: 3 });
		await deletePlaySession(world.app, world.alice.id, session.id);
		const name = `kantera-${session.id}`;
		expect(world.fake.databases.has(name)).toBe(true);
		return name;
	}

	/** A second app on the same settings with its background upkeep on: the server the sweeper runs in. */
	async function server(world: World, scheduler: Scheduler): Promise<App> {
		const app = await createApp(parseConfig(world.env), {
			turso: { retry: { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 }, sweepEveryMs: SWEEP_EVERY_MS },
			scheduler
		});
		const cleanup = world.cleanup;
		world.cleanup = async () => {
			await app.close();
			await cleanup();
		};
		return app;
	}

	const deletes = (fake: TursoFake, name: string) => fake.calls.filter((c) => c === `DELETE /databases/${name}`).length;

	it('in a server process: sweeps at start-up and again every interval', async () => {
		w = await world();
		const first = await leftover(w, 'First');
		await server(w, new ProcessScheduler());
		const fake = w.fake;
		await vi.waitFor(() => expect(fake.databases.has(first)).toBe(false), { timeout: 10_000, interval: 20 });
		const second = await leftover(w, 'Second');
		// The fake forgets the database when it answers the DELETE; the sweeper drops its record after that answer.
		const app = w.app;
		await vi.waitFor(
			async () => {
				expect(fake.databases.has(second)).toBe(false);
				expect(await recorded(app)).toEqual([]);
			},
			{ timeout: 10_000, interval: 20 }
		);
	});

	it('on an isolate host: sets no timer, runs from the first request after it is due, under that request’s waitUntil', async () => {
		w = await world();
		const first = await leftover(w, 'First');
		const clock = { now: Date.now() };
		const app = await server(w, new RequestScheduler({ now: () => clock.now }));
		const fake = w.fake;
		// No request: nothing runs, however long the instance idles.
		await new Promise((r) => setTimeout(r, SWEEP_EVERY_MS * 3));
		expect(deletes(fake, first)).toBe(3);
		const request = async () => {
			const held: Promise<unknown>[] = [];
			inRequest(
				(p) => void held.push(p),
				() => app.scheduler.tick()
			);
			await Promise.all(held);
			return held.length;
		};
		// The first request after start-up sweeps, and its waitUntil holds the sweep.
		expect(await request()).toBe(1);
		expect(fake.databases.has(first)).toBe(false);
		expect(deletes(fake, first)).toBe(4);
		// The next sweep is due an interval later, on the scheduler's clock.
		const second = await leftover(w, 'Second');
		expect(await request()).toBe(0);
		expect(fake.databases.has(second)).toBe(true);
		clock.now += SWEEP_EVERY_MS;
		expect(await request()).toBe(1);
		expect(fake.databases.has(second)).toBe(false);
		expect(await recorded(w.app)).toEqual([]);
	});
});
