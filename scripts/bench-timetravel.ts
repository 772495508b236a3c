/**
 * npm run bench:timetravel [-- --turns N] [--samples K]
 *
 * Plays a scripted campaign (default 1,000 player turns, scripts/bench-lib) through the real engine on
 * a real session database, then measures what time travel costs there:
 *   - storage: the undo log's bytes (keys and before-images) per turn, against the session database;
 *   - undo: the last turn taken back (one write transaction), K times in a row;
 *   - save and load (saveGame, loadSave) as the app does them: on these local files a page copy of the
 *     database in one read transaction;
 *   - every way of copying a session database, on the same database in the same run: VACUUM INTO (what
 *     save and load did before), the page copy, the file and its WAL copied under the write lock, and
 *     the row-by-row copy through the client (what remote databases use) with the vector index built
 *     again or its graph copied; each copy checked with PRAGMA integrity_check and vector_top_k;
 *   - the capture's cost on every turn: turns played with the undo log's triggers and, in the same run
 *     on the same database, with the triggers dropped (the baseline).
 * Not a test: figures go to docs/performance.md.
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { statSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createApp } from '../src/lib/server/app';
import { createUser } from '../src/lib/server/auth';
import { countTokensO200k } from '../src/lib/server/context-window';
import { copyDatabase, newId, sessionSchema, sqlText, undoLog, type SessionDb } from '../src/lib/server/db';
import { withoutUncopied } from '../src/lib/server/db/copy';
import { deletePlaySession, type PlaySession } from '../src/lib/server/sessions';
import { loadSave, saveGame, undoTurn } from '../src/lib/server/timetravel';
import { CampaignScript } from './bench-lib/campaign-script';
import { ScriptedProvider } from './bench-lib/scripted-provider';
import { benchConfig, player, seedSession, tempDataDir } from './bench-lib/setup';
import { round, table } from './bench-lib/stats';

const { values: args } = parseArgs({ options: { turns: { type: 'string', default: '1000' }, samples: { type: 'string', default: '10' } } });
const TURNS = Number(args.turns);
const SAMPLES = Number(args.samples);

const median = (xs: number[]) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length === 0 ? 0 : (s[Math.floor((s.length - 1) / 2)] ?? 0);
};
const p90 = (xs: number[]) => {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.min(s.length - 1, Math.floor(s.length * 0.9))] ?? 0;
};
const kb = (bytes: number) => round(bytes / 1024, 1);

/** What a copy is worth: SQLite's integrity check, and whether vector search answers on it. */
async function checkCopy(s: SessionDb): Promise<string> {
	const integrity = (await s.client.execute('PRAGMA integrity_check')).rows.map((r) => sqlText(r[0]));
	const ok = integrity.length === 1 && integrity[0] === 'ok';
	const found = await s.client.execute(
		"SELECT count(*) AS n FROM vector_top_k('section_vectors_idx', (SELECT embedding FROM section_vectors LIMIT 1), 5)"
	);
	return `integrity ${ok ? 'ok' : `FAILS (${integrity.length} errors: ${integrity[0] ?? ''})`}, vector_top_k ${Number(found.rows[0]?.n)} of 5`;
}

async function main(): Promise<void> {
	const data = tempDataDir('kantera-bench-timetravel-');
	const cfg = benchConfig(data.dir, { KANTERA_BUDGET_SESSION_USD: '100' });
	const script = new CampaignScript();
	const provider = new ScriptedProvider(script, { countInput: () => 1000, countOutput: countTokensO200k });
	const app = await createApp(cfg, { provider: () => provider, countTokens: countTokensO200k });
	try {
		const p = player(app);
		await app.sessions.create(p.sessionId);
		await app.sessions.use(p.sessionId, (s) => seedSession(s));
		console.log(`time-travel bench: ${TURNS} player turns, then ${SAMPLES} undos, saves and loads; Node ${process.version}`);
		const started = performance.now();
		const turnIds: string[] = [];
		const play = async (i: number) => {
			provider.current = i;
			const t0 = performance.now();
			const row = await p.play(script.turn(i).player);
			turnIds.push(row.id);
			return performance.now() - t0;
		};
		for (let i = 1; i <= TURNS; i++) {
			await play(i);
			if (i % 100 === 0) console.log(`  ${i} turns, ${((performance.now() - started) / 1000).toFixed(1)} s`);
		}
		await app.runner.idle();

		const use = <T>(fn: Parameters<typeof app.sessions.use<T>>[1]) => app.sessions.use(p.sessionId, fn);
		const file = path.join(data.dir, 'sessions', `${p.sessionId}.db`);
		const sizes = await use(async (s) => {
			await s.client.execute('PRAGMA wal_checkpoint(TRUNCATE)');
			const [pages] = (await s.client.execute('PRAGMA page_count')).rows;
			const [size] = (await s.client.execute('PRAGMA page_size')).rows;
			const [entries] = await s.db.all<{ n: number; turns: number }>(
				sql`SELECT count(*) AS n, count(DISTINCT turn_id) AS turns FROM undo_log`
			);
			return {
				db: Number(pages?.[0]) * Number(size?.[0]),
				undo: await undoLog.undoLogBytes(s.db),
				entries: Number(entries?.n),
				loggedTurns: Number(entries?.turns)
			};
		});
		let fileBytes = 0;
		try {
			fileBytes = statSync(file).size;
		} catch {
			fileBytes = sizes.db;
		}

		// Undo: the last turn, then the one before it, SAMPLES times.
		const undoMs: number[] = [];
		for (let k = 0; k < SAMPLES; k++) {
			const last = turnIds.pop();
			if (!last) break;
			const t0 = performance.now();
			await use((s) => undoTurn(app, s, last, newId()));
			undoMs.push(performance.now() - t0);
			await app.runner.idle();
		}

		// Save (saveGame: a page copy of the session's file into a save database) and load (loadSave: a new
		// session of the same owner, a page copy of the save); then each way of copying a database, timed on
		// the same session database in the same run, each copy checked (PRAGMA integrity_check, vector_top_k).
		const owner = await createUser(app, { name: 'bench', password: 'bench-password' }, { viaOperator: true });
		const session: PlaySession = {
			id: p.sessionId,
			ownerId: owner.id,
			title: 'Saltmere',
			language: 'en',
			createdAt: new Date(),
			updatedAt: new Date()
		};
		const saveMs: number[] = [];
		const loadMs: number[] = [];
		let saveBytes = 0;
		let loadedCheck = '';
		for (let k = 0; k < Math.min(SAMPLES, 3); k++) {
			const t0 = performance.now();
			const save = await use((s) => saveGame(app, s, { quick: true }, 'en'));
			saveMs.push(performance.now() - t0);
			const t1 = performance.now();
			const branch = await use((s) => loadSave(app, s, session, save.id));
			loadMs.push(performance.now() - t1);
			loadedCheck = await app.sessions.use(branch.id, checkCopy);
			await deletePlaySession(app, owner.id, branch.id);
			const [saved] = await use((s) => s.db.select().from(sessionSchema.saves));
			if (!saved) throw new Error('no save');
			saveBytes = await app.sessions.use(saved.database, async (db) => {
				const [pages] = (await db.client.execute('PRAGMA page_count')).rows;
				const [size] = (await db.client.execute('PRAGMA page_size')).rows;
				return Number(pages?.[0]) * Number(size?.[0]);
			});
		}
		const vectors = await use(async (s) => Number((await s.client.execute('SELECT count(*) AS n FROM section_vectors')).rows[0]?.n));

		let rows = 0;
		const fileOf = (id: string) => path.join(data.dir, 'sessions', `${id}.db`);
		/**
		 * Each way of making a new session database `target` (a new id, no database yet) a copy of
		 * `source`'s records, timed whole. The whole-file ways then delete what a copy does not carry (event
		 * log, ledger, save slots), as save and load do; the row-by-row ways create and migrate the target
		 * first, as a remote copy does.
		 */
		const ways: { name: string; copy: (source: SessionDb, target: string) => Promise<unknown> }[] = [
			{
				name: 'VACUUM INTO (save and load before)',
				copy: async (source, target) => {
					await source.client.execute({ sql: 'VACUUM INTO ?', args: [fileOf(target)] });
					await app.sessions.use(target, (to) => withoutUncopied(to.client));
				}
			},
			{
				name: 'page copy in one read transaction (save and load now)',
				copy: (source, target) => app.sessions.createCopy(source, target)
			},
			{
				name: 'file and WAL copied under the write lock',
				copy: async (source, target) => {
					await source.write(async () => {
						await copyFile(fileOf(source.id), fileOf(target));
						await copyFile(`${fileOf(source.id)}-wal`, `${fileOf(target)}-wal`).catch(() => undefined);
					});
					await app.sessions.use(target, (to) => withoutUncopied(to.client));
				}
			},
			{
				name: 'row by row, vector index built again (remote, before)',
				copy: async (source, target) => {
					await app.sessions.create(target);
					await app.sessions.use(target, async (to) => {
						rows = (await copyDatabase(source.client, to.client, { vectorIndex: 'rebuild' })).rows;
					});
				}
			},
			{
				name: 'row by row, vector graph copied (remote, now)',
				copy: async (source, target) => {
					await app.sessions.create(target);
					await app.sessions.use(target, (to) => copyDatabase(source.client, to.client));
				}
			}
		];
		const copies: { name: string; ms: number[]; check: string }[] = [];
		for (const way of ways) {
			const ms: number[] = [];
			let check = '';
			for (let k = 0; k < Math.min(SAMPLES, 3); k++) {
				const target = newId();
				const t0 = performance.now();
				await use((source) => way.copy(source, target));
				ms.push(performance.now() - t0);
				check = await app.sessions.use(target, checkCopy);
				await app.sessions.destroy(target);
			}
			copies.push({ name: way.name, ms, check });
		}

		// The capture's cost per turn: the same turns with the triggers and without them.
		const withCapture: number[] = [];
		const withoutCapture: number[] = [];
		const next = TURNS + 1;
		for (let k = 0; k < SAMPLES; k++) withCapture.push(await play(next + k));
		const dropped = await use(async (s) => {
			const rs = await s.client.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'undo\\_%' ESCAPE '\\'");
			for (const r of rs.rows) await s.client.execute(`DROP TRIGGER "${sqlText(r.name)}"`);
			return rs.rows.length;
		});
		for (let k = 0; k < SAMPLES; k++) withoutCapture.push(await play(next + SAMPLES + k));

		const turnsLogged = Math.max(1, sizes.loggedTurns);
		console.log('');
		console.log(
			table(
				['measure', 'value'],
				[
					['session database (after the campaign)', `${kb(fileBytes)} KiB`],
					[
						'undo log, all turns (keys + before-images)',
						`${kb(sizes.undo)} KiB (${round((100 * sizes.undo) / Math.max(1, fileBytes), 1)} % of the database)`
					],
					[
						'undo log per turn (mean over turns incl. checkpoints)',
						`${round(sizes.undo / turnsLogged, 0)} B (${round(sizes.entries / turnsLogged, 1)} rows)`
					],
					['session database per turn', `${round(fileBytes / TURNS / 1024, 2)} KiB`],
					[`undo of the last turn (median / p90 of ${undoMs.length})`, `${round(median(undoMs), 1)} / ${round(p90(undoMs), 1)} ms`],
					[
						`save: saveGame, a page copy (median of ${saveMs.length})`,
						`${round(median(saveMs), 0)} ms, ${kb(saveBytes)} KiB, ${vectors} vectors`
					],
					[`load: loadSave, a page copy into a new session (median of ${loadMs.length})`, `${round(median(loadMs), 0)} ms; ${loadedCheck}`],
					...copies.map((c) => [`copy (median of ${c.ms.length}): ${c.name}`, `${round(median(c.ms), 0)} ms; ${c.check}`]),
					['rows copied (row by row)', `${rows}`],
					[`a turn with the undo capture (median of ${withCapture.length})`, `${round(median(withCapture), 1)} ms`],
					[`a turn without it: ${dropped} triggers dropped (median of ${withoutCapture.length})`, `${round(median(withoutCapture), 1)} ms`]
				]
			)
		);
	} finally {
		await app.close();
		data.remove();
	}
}

await main();
