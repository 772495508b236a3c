/**
 * npm run bench:timetravel [-- --turns N] [--samples K]
 *
 * Plays a scripted campaign (default 1,000 player turns, scripts/bench-lib) through the real engine on
 * a real session database, then measures what time travel costs there:
 *   - storage: the undo log's bytes (keys and before-images) per turn, against the session database;
 *   - undo: the last turn taken back (one write transaction), K times in a row;
 *   - save: a copy of the records into a save database, and loading it (a copy into a new session):
 *     on these local files a snapshot of the file (VACUUM INTO), against the row-by-row copy through
 *     the client (what remote databases use) on the same databases in the same run;
 *   - the capture's cost on every turn: turns played with the undo log's triggers and, in the same run
 *     on the same database, with the triggers dropped (the baseline).
 * Not a test: figures go to docs/performance.md.
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { statSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createApp } from '../src/lib/server/app';
import { countTokensO200k } from '../src/lib/server/context-window';
import { copyDatabase, newId, sessionSchema, sqlText, undoLog, type SessionDb } from '../src/lib/server/db';
import { saveGame, undoTurn } from '../src/lib/server/timetravel';
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

		// Save (saveGame: a snapshot of the session's file into a save database) and load (the same copy
		// loadSave makes, into a new session); in the same run, on the same databases, the row-by-row copy
		// through the client that remote databases use (and, before the snapshot, every database did).
		const saveMs: number[] = [];
		const loadMs: number[] = [];
		const rowSaveMs: number[] = [];
		const rowLoadMs: number[] = [];
		let saveBytes = 0;
		let rows = 0;
		const timedCopy = async (from: string, how: (source: SessionDb, target: string) => Promise<unknown>) => {
			const target = newId();
			await app.sessions.create(target);
			const t0 = performance.now();
			await app.sessions.use(from, (source) => how(source, target));
			const ms = performance.now() - t0;
			await app.sessions.destroy(target);
			return ms;
		};
		const byRows = (source: SessionDb, target: string) =>
			app.sessions.use(target, async (to) => {
				rows = (await copyDatabase(source.client, to.client)).rows;
			});
		for (let k = 0; k < Math.min(SAMPLES, 3); k++) {
			const t0 = performance.now();
			await use((s) => saveGame(app, s, { quick: true }, 'en'));
			saveMs.push(performance.now() - t0);
			const [saved] = await use((s) => s.db.select().from(sessionSchema.saves));
			if (!saved) throw new Error('no save');
			loadMs.push(await timedCopy(saved.database, (source, target) => app.sessions.copyRecords(source, target)));
			rowSaveMs.push(await timedCopy(p.sessionId, byRows));
			rowLoadMs.push(await timedCopy(saved.database, byRows));
			saveBytes = await app.sessions.use(saved.database, async (db) => {
				const [pages] = (await db.client.execute('PRAGMA page_count')).rows;
				const [size] = (await db.client.execute('PRAGMA page_size')).rows;
				return Number(pages?.[0]) * Number(size?.[0]);
			});
		}
		const vectors = await use(async (s) => Number((await s.client.execute('SELECT count(*) AS n FROM section_vectors')).rows[0]?.n));
		// The same snapshot as a save's, without the save's other work (stage, last line, slot row).
		const snapshotMs = await timedCopy(p.sessionId, (source, target) => app.sessions.copyRecords(source, target));
		// What of it is the vector index: libSQL's VACUUM re-inserts every vector into the DiskANN index
		// (its shadow table is not copied as pages). The same snapshot from a copy without that index.
		const withoutIndex = newId();
		await app.sessions.create(withoutIndex);
		await use((s) => app.sessions.copyRecords(s, withoutIndex));
		await app.sessions.use(withoutIndex, (s) => s.client.execute('DROP INDEX section_vectors_idx'));
		const noIndexMs = await timedCopy(withoutIndex, (source, target) => app.sessions.copyRecords(source, target));
		await app.sessions.destroy(withoutIndex);

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
						`save: a snapshot of the file (VACUUM INTO; median of ${saveMs.length})`,
						`${round(median(saveMs), 0)} ms, ${kb(saveBytes)} KiB, ${vectors} vectors`
					],
					[`load: a snapshot of the save into a new session (median of ${loadMs.length})`, `${round(median(loadMs), 0)} ms`],
					['the snapshot alone (session → new database)', `${round(snapshotMs, 0)} ms`],
					['the snapshot alone, of a copy without the vector index', `${round(noIndexMs, 0)} ms`],
					[
						`baseline, same run: the session copied row by row (median of ${rowSaveMs.length})`,
						`${round(median(rowSaveMs), 0)} ms, ${rows} rows`
					],
					[`baseline, same run: the save copied row by row (median of ${rowLoadMs.length})`, `${round(median(rowLoadMs), 0)} ms`],
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
