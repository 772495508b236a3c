/**
 * `kantera doctor` on what nothing refers to: the preset covers' image folders (the official worlds' too)
 * and the save slots' database files belong to something and are never called stray; a folder or file no
 * session, save or cover names is, and --repair lists it before it removes it, and removes only it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createApp } from '../../../src/lib/server/app';
import { parseConfig } from '../../../src/lib/server/config';
import { createUser } from '../../../src/lib/server/auth';
import { createPlaySession } from '../../../src/lib/server/sessions';
import { saveGame } from '../../../src/lib/server/timetravel';
import { sqlText } from '../../../src/lib/server/db';
import { runDoctor, type Finding } from '../../../src/lib/server/cli/doctor';
import { tempDir } from '../../helpers/env';
import { holdDataDir } from '../../../src/lib/server/db/local-files';
import { ScriptedProvider } from '../images/helpers';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const c of cleanups.splice(0).reverse()) await c();
});

const find = (findings: Finding[], area: string) => findings.filter((f) => f.area === area);

/** A data directory with the official covers drawn, one session and one save slot of it; the server closed again. */
async function playedDataDir(): Promise<{ dir: string; coverSlots: string[]; saveDatabase: string; sessionId: string }> {
	const d = tempDir();
	cleanups.push(() => d.remove());
	const app = await createApp(parseConfig({ KANTERA_DATA_DIR: d.dir }), { images: { provider: new ScriptedProvider() } });
	try {
		app.covers.resume();
		const slots: string[] = [];
		for (const id of ['sword-and-sorcery', 'iron-walkers']) {
			for (let job = await app.covers.get(id); job?.status !== 'done'; job = await app.covers.get(id)) await app.covers.idle();
			const job = await app.covers.get(id);
			if (job) slots.push(job.slot);
		}
		const user = await createUser(app, { name: 'player', password: 'correct horse battery' }, { viaOperator: true });
		const session = await createPlaySession(app, { ownerId: user.id, title: 'One', language: 'en' });
		await app.sessions.use(session.id, (s) => saveGame(app, s, { name: 'Before the gate', quick: false }, 'en'));
		const saves = await app.sessions.use(session.id, (s) => s.client.execute('SELECT database FROM saves'));
		return { dir: d.dir, coverSlots: slots, saveDatabase: sqlText(saves.rows[0]?.database), sessionId: session.id };
	} finally {
		await app.close();
	}
}

describe('kantera doctor and what nothing refers to', () => {
	it('never calls covers or save slots stray; lists a real stray, and --repair lists then removes only it', async () => {
		const { dir, coverSlots, saveDatabase, sessionId } = await playedDataDir();
		const images = path.join(dir, 'images');
		const sessions = path.join(dir, 'sessions');
		/** Only what something refers to: the two official covers' folders, the session's and its save's databases. */
		const expectOnlyOwned = () => {
			expect(readdirSync(images).sort()).toEqual([...coverSlots].sort());
			const databases = readdirSync(sessions).filter((f) => f.endsWith('.db'));
			expect(databases.sort()).toEqual([`${saveDatabase}.db`, `${sessionId}.db`].sort());
		};
		expectOnlyOwned();
		// What a deleted session could leave behind: its image folder and its database file.
		const gone = 'b'.repeat(20);
		mkdirSync(path.join(images, gone));
		writeFileSync(path.join(images, gone, 'x1.svg'), '<svg/>');
		writeFileSync(path.join(sessions, `${gone}.db`), '');
		writeFileSync(path.join(sessions, `${gone}.db-wal`), '');
		const env = { KANTERA_DATA_DIR: dir };

		const report = await runDoctor(env, { timeoutMs: 2_000, repair: false });
		expect(find(report, 'image store')).toEqual([
			expect.objectContaining({
				status: 'ok',
				message: expect.stringMatching(/writable, images of 0 session\(s\) and 2 preset cover\(s\)$/)
			}),
			expect.objectContaining({
				status: 'warn',
				message: `1 image folder(s) that no session or preset cover refers to: ${gone} (kantera doctor --repair lists and removes them)`
			}),
			expect.objectContaining({ status: 'ok', message: 'all 2 image(s) the records refer to present' })
		]);
		expect(find(report, 'orphaned databases')).toEqual([
			expect.objectContaining({
				status: 'warn',
				message: expect.stringMatching(new RegExp(`no session or save slot refers to: ${gone}\\.db \\(`))
			})
		]);
		// Nothing was touched by the report.
		expect(existsSync(path.join(images, gone))).toBe(true);

		// While a server holds the data directory, --repair removes nothing.
		const lock = holdDataDir(dir);
		const served = await runDoctor(env, { timeoutMs: 2_000, repair: true });
		rmSync(lock);
		expect(find(served, 'config')).toContainEqual(
			expect.objectContaining({ status: 'warn', message: expect.stringMatching(/^--repair not done: a server holds .*; stop it first$/) })
		);
		expect(served.filter((f) => f.message.startsWith('repair:'))).toEqual([]);
		expect(existsSync(path.join(images, gone))).toBe(true);

		const repair = await runDoctor(env, { timeoutMs: 2_000, repair: true });
		expect(find(repair, 'image store').slice(1, 3)).toEqual([
			expect.objectContaining({
				status: 'info',
				message: `repair: removing 1 image folder(s) that no session or preset cover refers to: ${gone}`
			}),
			expect.objectContaining({ status: 'ok', message: 'repair: removed 1' })
		]);
		expect(find(repair, 'orphaned databases')).toEqual([
			expect.objectContaining({ status: 'info', message: expect.stringMatching(new RegExp(`^repair: removing 1 .*: ${gone}\\.db$`)) }),
			expect.objectContaining({ status: 'ok', message: 'repair: removed 1' })
		]);
		expectOnlyOwned();
		expect(readdirSync(sessions).filter((f) => f.startsWith(gone))).toEqual([]);

		const after = await runDoctor(env, { timeoutMs: 2_000, repair: false });
		expect(after.filter((f) => f.status === 'warn' && /image store|orphaned/.test(f.area))).toEqual([]);
		expect(find(after, 'orphaned databases')).toEqual([expect.objectContaining({ status: 'ok', message: 'none' })]);
	});

	it('warns of an image the records refer to that the store lacks (what a backup without images left behind)', async () => {
		const { dir, coverSlots } = await playedDataDir();
		const [slot] = coverSlots;
		if (!slot) throw new Error('a cover expected');
		const [cover] = readdirSync(path.join(dir, 'images', slot));
		if (!cover) throw new Error('a cover image expected');
		rmSync(path.join(dir, 'images', slot, cover));
		const report = await runDoctor({ KANTERA_DATA_DIR: dir }, { timeoutMs: 2_000, repair: false });
		expect(find(report, 'image store')).toContainEqual(
			expect.objectContaining({
				status: 'warn',
				message:
					`1 of 2 image(s) the records refer to are missing from the store: ${slot}/${cover} ` +
					'(they answer 404; kantera restore from a backup brings them back)'
			})
		);
	});
});
