/**
 * Backups (`kantera backup` / `kantera restore`) of a campaign in play: real turns against the mock LLM,
 * real databases (local files here; the Hrana test server in the remote project, where copies are
 * exports and restores are loads over HTTP).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, statSync, writeFileSync, readdirSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Client } from '@libsql/client';
import { mockLlmApp, type MockLlmApp } from '../../helpers/turns';
import { tempDir } from '../../helpers/env';
import { databaseEnv, isRemoteRun } from '../../helpers/databases';
import { kanteraInProcess } from '../../helpers/cli';
import { createApp, type App } from '../../../src/lib/server/app';
import { parseConfig, type Config } from '../../../src/lib/server/config';
import { createUser } from '../../../src/lib/server/auth';
import { startSession } from '../../../src/lib/server/sessions';
import { acceptTurn, readTurn, sessionsWithWork } from '../../../src/lib/server/turn';
import { coverImages, newId, sessionImageKeys, sqlText } from '../../../src/lib/server/db';
import { runDoctor } from '../../../src/lib/server/cli/doctor';
import { recall, OfflineEmbedder } from '../../../src/lib/server/search';
import { readManifest, startBackupSchedule, listBackups, imageFile } from '../../../src/lib/server/db/backup';
import { saveGame } from '../../../src/lib/server/timetravel';
import { saveDatabases } from '../../../src/lib/server/sessions';
import { integrity } from '../../helpers/copies';
import { startLocalS3 } from '../../s3';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const c of cleanups.splice(0).reverse()) await c();
});

/** The variables that point a CLI (or a second app) at the same databases as `cfg`. */
const envOf = (cfg: Config): Record<string, string> => ({
	KANTERA_DATA_DIR: cfg.dataDir,
	KANTERA_CONTROL_DB_URL: cfg.controlDb.url,
	KANTERA_SESSION_DB_URL: cfg.sessionDb.urlTemplate
});

/**
 * Waits until the server has nothing left to do: no turn or image job running and every note of work
 * dropped. The runner drops a session's note on a timer, a while after the turn was accepted (see
 * ACCEPT_WINDOW_MS): a snapshot taken before that would differ from a backup taken after it.
 */
async function settled(app: App): Promise<void> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const pending = await sessionsWithWork(app.control.db);
		await app.runner.idle();
		await app.images.idle();
		await app.covers.idle();
		if (pending.length === 0 && (await sessionsWithWork(app.control.db)).length === 0) return;
		if (Date.now() > deadline) throw new Error(`sessions still noted as having work: ${pending.join(', ')}`);
		await new Promise((r) => setTimeout(r, 100));
	}
}

async function campaign(): Promise<
	MockLlmApp & { sessionIds: string[]; userId: string; play(sessionId: string, text: string): Promise<void> }
> {
	const m = await mockLlmApp('openai');
	cleanups.push(() => m.cleanup());
	const user = await createUser(m.app, { name: 'alice', password: 'wonderland' });
	const ids: string[] = [];
	for (const world of ['sword-and-sorcery', 'iron-walkers'])
		ids.push((await startSession(m.app, { ownerId: user.id, title: world, worldId: world, language: 'en' })).session.id);
	// The official worlds' covers, drawn as the gallery's first visit has them drawn.
	m.app.covers.resume();
	await m.app.covers.idle();
	await m.app.images.idle();
	return {
		...m,
		sessionIds: ids,
		userId: user.id,
		async play(sessionId, text) {
			m.mock.script([
				{
					toolCalls: [
						{ name: 'journal_append', arguments: { entry: `${text}: the bell of the salt tower rings.` } },
						{ name: 'update_state', arguments: { patch: { location: text } } }
					]
				},
				{ text: `${text}. Gulls cry over the pier.` }
			]);
			await m.app.sessions.use(sessionId, (s) => acceptTurn(m.app, s, { userId: user.id, text, idempotencyKey: newId() }));
			m.app.runner.kick(sessionId);
			await m.app.runner.idle();
			await m.app.images.idle();
		}
	};
}

/**
 * Every row of every table that holds data of its own, blobs as base64: the records, and the vector
 * index's graph and settings rows as they are (a copy carries them exactly); not the full-text indexes'
 * shadow tables (their segments depend on merge history; search is compared instead).
 */
async function rows(client: Client): Promise<Record<string, unknown[]>> {
	const tables = await client.execute(
		"SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
	);
	const out: Record<string, unknown[]> = {};
	for (const t of tables.rows.map((r) => sqlText(r.name))) {
		// Ordered by every column, so two copies of a table list their rows the same way whatever its shape.
		const columns = await client.execute({ sql: 'SELECT name FROM pragma_table_info(?) ORDER BY cid', args: [t] });
		const order = columns.rows.map((c) => `"${sqlText(c.name).replaceAll('"', '""')}"`).join(', ');
		if (order === '') throw new Error(`table ${t} has no columns`);
		const rs = await client.execute(`SELECT * FROM "${t}" ORDER BY ${order}`);
		out[t] = rs.rows.map((r) =>
			Object.fromEntries(rs.columns.map((c, i) => [c, r[i] instanceof ArrayBuffer ? Buffer.from(r[i]).toString('base64') : r[i]]))
		);
	}
	const seq = await client.execute("SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_sequence'");
	if (Number(seq.rows[0]?.[0]) > 0)
		out.sqlite_sequence = (await client.execute('SELECT name, seq FROM sqlite_sequence ORDER BY name')).rows.map((r) => [r.name, r.seq]);
	return out;
}

const embedder = new OfflineEmbedder(384);

/** The control database and each session's: all rows, plus what recall (FTS5 + vectors) finds. */
async function snapshot(app: App, ids: string[]) {
	const sessions: Record<string, unknown> = {};
	for (const id of ids) {
		sessions[id] = await app.sessions.use(id, async (s) => {
			const hits = await recall(s.db, 'salt tower bell', { embedder, includeGmOnly: true });
			const vectors = await s.client.execute("SELECT count(*) FROM sqlite_master WHERE name = 'section_vectors'");
			const near =
				Number(vectors.rows[0]?.[0]) > 0
					? (
							await s.client.execute(
								"SELECT id FROM vector_top_k('section_vectors_idx', (SELECT embedding FROM section_vectors LIMIT 1), 5)"
							)
						).rows.map((r) => r.id)
					: [];
			return {
				rows: await rows(s.client),
				// The best hit, then which hits, not their order: hits that tie at the similarity floor keep the
				// order the vector index walks them in, and a remote restore builds that index anew.
				best: hits[0] ? [hits[0].kind, hits[0].recordId, hits[0].path] : null,
				recall: hits.map((h) => [h.kind, h.recordId, h.path]).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
				near,
				integrity: await integrity(s.client)
			};
		});
	}
	return { control: await rows(app.control.client), controlIntegrity: await integrity(app.control.client), sessions };
}

/**
 * Every image in the store of every session and preset cover (folder/key → SHA-256 of the bytes read back),
 * and the ones the records refer to: a session's sprites, backgrounds and orders, a cover's drawn image.
 */
async function imagesOf(app: App) {
	const sessions = (await app.control.client.execute('SELECT id FROM play_sessions ORDER BY id')).rows.map((r) => sqlText(r.id));
	const covers = await coverImages(app.control.client);
	const stored: Record<string, string> = {};
	for (const folder of [...sessions, ...covers.map((c) => c.slot)])
		for (const key of await app.images.store.keys(folder)) {
			const image = await app.images.store.get(folder, key);
			stored[`${folder}/${key}`] = image ? createHash('sha256').update(image.bytes).digest('hex') : 'missing';
		}
	const referenced: string[] = covers.flatMap((c) => (c.image ? [`${c.slot}/${c.image}`] : []));
	for (const id of sessions) referenced.push(...(await app.sessions.use(id, (s) => sessionImageKeys(s.client))).map((k) => `${id}/${k}`));
	return { stored, referenced: referenced.sort() };
}

async function cli(env: Record<string, string>, args: string[]) {
	const run = await kanteraInProcess(env.KANTERA_DATA_DIR ?? '', args, undefined, env);
	return run;
}

// Whole campaigns, two worlds each, through the CLI: seconds on an idle machine, far more on a shared one.
describe('kantera backup / restore', { timeout: 180_000 }, () => {
	it('restores a backup taken mid-campaign, while the server runs, with every record identical', async () => {
		const c = await campaign();
		const [a, b] = c.sessionIds;
		if (!a || !b) throw new Error('two sessions expected');
		await c.play(a, 'North Gate');
		// A save slot: a database of its own, named by a row of the session's.
		await c.app.sessions.use(a, (s) => saveGame(c.app, s, { name: 'At the gate', quick: false }, 'en'));
		const [slot] = await c.app.sessions.use(a, (s) => saveDatabases(s));
		if (!slot) throw new Error('a save slot database expected');
		await c.play(b, 'Trench line');
		await settled(c.app);
		const out = tempDir('kantera-backups-');
		cleanups.push(() => out.remove());
		const env = envOf(c.app.config);

		const before = await snapshot(c.app, [a, b, slot]);
		expect(Object.keys(before.sessions)).toHaveLength(3);
		// Stage images of both sessions and the official worlds' covers, every one the records name in the store.
		const pictures = await imagesOf(c.app);
		expect(pictures.referenced.filter((r) => r.startsWith(a)).length).toBeGreaterThan(0);
		expect(pictures.referenced.filter((r) => !r.startsWith(a) && !r.startsWith(b)).length).toBeGreaterThan(0);
		expect(Object.keys(pictures.stored)).toEqual(expect.arrayContaining(pictures.referenced));
		// Every database sound, the vector index's tables among the rows compared, vector search answering.
		expect(before.controlIntegrity).toEqual(['ok']);
		for (const id of [a, b, slot])
			expect(before.sessions[id]).toMatchObject({
				integrity: ['ok'],
				near: expect.arrayContaining([expect.any(Number)]),
				rows: { libsql_vector_meta_shadow: [expect.anything()], section_vectors_idx_shadow: expect.arrayContaining([expect.anything()]) }
			});
		expect(before.sessions[a]).toMatchObject({ recall: expect.arrayContaining([expect.arrayContaining(['journal'])]) });
		const taken = await cli(env, ['backup', '--out', out.dir]);
		expect(taken.stderr).toBe('');
		expect(taken.code).toBe(0);
		const [backup] = await listBackups(out.dir);
		if (!backup) throw new Error('no backup written');
		const manifest = await readManifest(backup.dir);
		expect(manifest.sessions.map((s) => s.id).sort()).toEqual([a, b].sort());
		expect(manifest.saves.map((s) => [s.id, s.session, s.file])).toEqual([[slot, a, `saves/${slot}.${isRemoteRun() ? 'jsonl' : 'db'}`]]);
		expect(manifest.control.kind).toBe(isRemoteRun() ? 'export' : 'file');
		expect(manifest.images.map((i) => `${i.folder}/${i.key}`).sort()).toEqual(Object.keys(pictures.stored).sort());
		const verified = await cli(env, ['backup', '--verify', '--from', backup.dir]);
		expect(verified.stdout).toMatch(/verified .*: 4 database\(s\) pass PRAGMA integrity_check/);
		expect(verified.code).toBe(0);

		// The campaign goes on after the backup, and the slot's database changes too.
		await c.play(a, 'Harbour');
		await c.app.sessions.use(slot, (s) => s.client.execute("DELETE FROM meta WHERE key = 'mission'"));
		expect(await snapshot(c.app, [a, b, slot])).not.toEqual(before);

		// Restored into an empty data directory: every record and every image as it was at the backup.
		const fresh = tempDir();
		cleanups.push(() => fresh.remove());
		const freshEnv = databaseEnv(fresh.dir);
		expect(readdirSync(fresh.dir)).toEqual([]);
		const restored = await cli(freshEnv, ['restore', '--from', backup.dir]);
		expect(restored.stderr).toMatch(/control database restored/);
		expect(restored.stderr).toContain(`save slot ${slot} of session ${a} restored`);
		expect(restored.code).toBe(0);
		// The doctor finds nothing to warn about: no image the records name is missing, no stray file (the provider
		// check aside: the mock LLM has no GET /models, which the doctor reports as a warning of its own).
		const doctorEnv = { ...freshEnv, OPENAI_BASE_URL: c.mock.openaiBaseUrl, OPENAI_API_KEY: 'sk-test', KANTERA_LLM_MODEL: 'mock-model' };
		const findings = (await runDoctor(doctorEnv, { timeoutMs: 10_000, repair: false })).filter((f) => f.area !== 'LLM provider');
		expect(findings.filter((f) => f.status === 'warn' || f.status === 'fail')).toEqual([]);
		expect(findings).toContainEqual(
			expect.objectContaining({ area: 'image store', status: 'ok', message: expect.stringMatching(/the records refer to present/) })
		);
		const app2 = await createApp(parseConfig(freshEnv), { background: false });
		cleanups.push(() => app2.close());
		expect(await snapshot(app2, [a, b, slot])).toEqual(before);
		expect(await imagesOf(app2)).toEqual(pictures);

		// Restored in place over the later turn (the server stopped first).
		await c.app.close();
		const inPlace = await cli(env, ['restore', '--from', backup.dir]);
		expect(inPlace.code).toBe(0);
		const app3 = await createApp(parseConfig(env), { background: false });
		cleanups.push(() => app3.close());
		expect(await snapshot(app3, [a, b, slot])).toEqual(before);
	});

	it('backs up the images of a bucket, links them the next time without reading them, and restores them into another', async () => {
		const s3 = await startLocalS3();
		cleanups.push(() => s3.close());
		const bucket = (prefix: string) => s3.env({ KANTERA_S3_PREFIX: prefix });
		const m = await mockLlmApp('openai', bucket('live/'));
		cleanups.push(() => m.cleanup());
		const user = await createUser(m.app, { name: 'alice', password: 'wonderland' });
		await startSession(m.app, { ownerId: user.id, title: 'Bucket', worldId: 'sword-and-sorcery', language: 'en' });
		m.app.covers.resume();
		await settled(m.app);
		const pictures = await imagesOf(m.app);
		expect(Object.keys(pictures.stored).length).toBeGreaterThan(0);
		expect(readdirSync(m.app.config.dataDir)).not.toContain('images');

		const out = tempDir('kantera-backups-');
		cleanups.push(() => out.remove());
		const env = { ...envOf(m.app.config), ...bucket('live/') };
		expect((await cli(env, ['backup', '--out', out.dir])).code).toBe(0);
		const again = await cli(env, ['backup', '--out', out.dir, '--verify']);
		expect(again.code).toBe(0);
		expect(again.stdout).toMatch(new RegExp(`0 image\\(s\\) copied, ${Object.keys(pictures.stored).length} unchanged`));
		expect(again.stdout).toMatch(/verified .*every referenced image present/);
		const [newest] = await listBackups(out.dir);
		if (!newest) throw new Error('no backup');

		const fresh = tempDir();
		cleanups.push(() => fresh.remove());
		const freshEnv = { ...databaseEnv(fresh.dir), ...bucket('restored/') };
		expect((await cli(freshEnv, ['restore', '--from', newest.dir])).code).toBe(0);
		const app2 = await createApp(parseConfig(freshEnv), { background: false });
		cleanups.push(() => app2.close());
		expect(await imagesOf(app2)).toEqual(pictures);
		expect((await s3.list('restored/')).length).toBe(Object.keys(pictures.stored).length);
	});

	it('leaves the server’s turns to the server: a backup taken while a turn waits does not run it', async () => {
		const c = await campaign();
		const [a] = c.sessionIds;
		if (!a) throw new Error('a session expected');
		const out = tempDir('kantera-backups-');
		cleanups.push(() => out.remove());
		// Accepted (and noted as work in the control database) but not yet picked up by the server's runner.
		const accepted = await c.app.sessions.use(a, (s) =>
			acceptTurn(c.app, s, { userId: c.userId, text: 'Knock on the gate', idempotencyKey: newId() })
		);
		c.mock.script([{ text: 'The gate opens.' }]);
		const run = await cli(envOf(c.app.config), ['backup', '--out', out.dir]);
		expect(run.code).toBe(0);
		expect(c.mock.requests).toHaveLength(0);
		const turn = await c.app.sessions.use(a, (s) => readTurn(s, accepted.turnId, Date.now()));
		expect(turn.turn).toMatchObject({ status: 'accepted', leaseOwner: null });
	});

	it('copies only the databases that changed since the last backup, the rest are linked', async () => {
		const c = await campaign();
		const [a, b] = c.sessionIds;
		if (!a || !b) throw new Error('two sessions expected');
		const out = tempDir('kantera-backups-');
		cleanups.push(() => out.remove());
		const env = envOf(c.app.config);
		expect((await cli(env, ['backup', '--out', out.dir])).code).toBe(0);
		await c.play(a, 'North Gate');
		const second = await cli(env, ['backup', '--out', out.dir]);
		expect(second.code).toBe(0);
		expect(second.stdout).toMatch(/2 database\(s\) copied, 1 unchanged/);
		const [newest, oldest] = await listBackups(out.dir);
		if (!newest || !oldest) throw new Error('two backups expected');
		const manifest = await readManifest(newest.dir);
		expect(manifest.previous).toBe(oldest.name);
		expect(Object.fromEntries(manifest.sessions.map((s) => [s.id, s.changed]))).toEqual({ [a]: true, [b]: false });
		const bFile = manifest.sessions.find((s) => s.id === b)?.file ?? '';
		// Hard-linked: the unchanged copy is the same file in both backups.
		expect(statSync(path.join(newest.dir, bFile)).ino).toBe(statSync(path.join(oldest.dir, bFile)).ino);
		// Images too: those of the first backup are linked, not read from the store again.
		const first = await readManifest(oldest.dir);
		expect(first.images.length).toBeGreaterThan(0);
		for (const image of first.images) {
			expect(manifest.images).toContainEqual({ ...image, changed: false });
			expect(statSync(path.join(newest.dir, imageFile(image))).ino).toBe(statSync(path.join(oldest.dir, imageFile(image))).ino);
		}
	});

	it('refuses a damaged backup and changes nothing', async () => {
		const c = await campaign();
		const out = tempDir('kantera-backups-');
		cleanups.push(() => out.remove());
		const env = envOf(c.app.config);
		await settled(c.app);
		expect((await cli(env, ['backup', '--out', out.dir])).code).toBe(0);
		const [backup] = await listBackups(out.dir);
		if (!backup) throw new Error('no backup');
		const before = await snapshot(c.app, c.sessionIds);
		const manifest = await readManifest(backup.dir);
		const victim = path.join(backup.dir, manifest.sessions[0]?.file ?? '');
		const bytes = readFileSync(victim);
		bytes[bytes.length - 10] = (bytes[bytes.length - 10] ?? 0) ^ 0xff;
		writeFileSync(victim, bytes);
		// An image damaged, another gone: --verify lists all three problems and fails.
		const [hurt, lost] = manifest.images;
		if (!hurt || !lost) throw new Error('two images expected in the backup');
		writeFileSync(path.join(backup.dir, imageFile(hurt)), 'not the image');
		rmSync(path.join(backup.dir, imageFile(lost)));
		const verified = await cli(env, ['backup', '--verify', '--from', backup.dir]);
		expect(verified.code).toBe(1);
		expect(verified.stdout).toContain(`FAIL ${manifest.sessions[0]?.file ?? ''} in ${backup.dir} is damaged`);
		expect(verified.stdout).toContain(`FAIL ${imageFile(hurt)} in ${backup.dir} is damaged`);
		expect(verified.stdout).toContain(`FAIL ${imageFile(lost)} is missing from the backup`);
		expect(verified.stderr).toMatch(/3 problem\(s\) in the backup/);
		const run = await cli(env, ['restore', '--from', backup.dir]);
		expect(run.code).toBe(1);
		expect(run.stderr).toMatch(/damaged/);
		expect(await snapshot(c.app, c.sessionIds)).toEqual(before);
	});

	it('runs on a cron schedule in the server and keeps only the newest backups', async () => {
		const c = await campaign();
		const out = tempDir('kantera-backups-');
		cleanups.push(() => out.remove());
		// Every second (croner's six-field form), keeping one.
		const stop = startBackupSchedule(
			{ config: c.app.config, control: c.app.control, sessions: c.app.sessions },
			{ cron: '* * * * * *', dir: out.dir, keep: 1 }
		);
		cleanups.push(stop);
		const deadline = Date.now() + 15_000;
		const seen = new Set<string>();
		while (Date.now() < deadline && seen.size < 3) {
			for (const b of await listBackups(out.dir)) seen.add(b.name);
			await new Promise((r) => setTimeout(r, 100));
		}
		stop();
		await new Promise((r) => setTimeout(r, 1_500));
		expect(seen.size).toBeGreaterThanOrEqual(3);
		expect((await listBackups(out.dir)).length).toBe(1);
		expect(readdirSync(out.dir).filter((n) => n.endsWith('.partial'))).toEqual([]);
	});
});
