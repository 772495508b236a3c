/**
 * The databases' state: reachable, which SQLite, which migrations applied, pending or unknown (written
 * by a newer Kantera). The control database is checked by the doctor's run; the session databases here,
 * a few at a time.
 */
import type { Client } from '@libsql/client';
import { stat } from 'node:fs/promises';
import type { Config } from '../../config';
import { openClient, isFileUrl, sqlText, sessionImageKeys, sessionMigrations, type SessionPlacement, type Migration } from '../../db';
import { filePathOf } from '../../db/local-files';
import type { DoctorOptions, Finding, Status } from './finding';
import { reason, withTimeout } from './probe';
import { saveDatabases } from './references';

/** Session databases opened at once while checking them. */
const SESSION_CHECK_CONCURRENCY = 4;

export interface DbState {
	version: string;
	applied: number;
	pending: number;
	unknown: string[];
}

export async function databaseState(client: Client, bundled: readonly Migration[], timeoutMs: number): Promise<DbState> {
	const version = await withTimeout(client.execute('SELECT sqlite_version() AS v'), timeoutMs);
	const hasTable = await withTimeout(
		client.execute("SELECT count(*) AS n FROM sqlite_master WHERE name = '__kantera_migrations'"),
		timeoutMs
	);
	const applied =
		Number(hasTable.rows[0]?.n) > 0
			? (await withTimeout(client.execute('SELECT idx, tag FROM __kantera_migrations'), timeoutMs)).rows.map((r) => ({
					idx: Number(r.idx),
					tag: sqlText(r.tag)
				}))
			: [];
	const known = new Set(bundled.map((m) => m.idx));
	const done = new Set(applied.map((a) => a.idx));
	return {
		version: sqlText(version.rows[0]?.v ?? '?'),
		applied: applied.length,
		pending: bundled.filter((m) => !done.has(m.idx)).length,
		unknown: applied.filter((a) => !known.has(a.idx)).map((a) => a.tag)
	};
}

export function migrationsText(s: DbState, total: number): { status: Status; text: string } {
	if (s.unknown.length)
		return {
			status: 'fail',
			text: `has migration(s) this Kantera does not know (${s.unknown.join(', ')}): it was written by a newer version`
		};
	if (s.pending) return { status: 'warn', text: `${s.pending} of ${total} migration(s) pending (applied when the server opens it)` };
	return { status: 'ok', text: `${total}/${total} migrations applied` };
}

export interface SessionsChecked {
	findings: Finding[];
	/** The save slots' databases of every session, or undefined when a session could not be read (its saves are unknown). */
	saves: Set<string> | undefined;
	/** The image keys each reachable session's records refer to (in its own image folder). */
	images: Map<string, string[]>;
}

export async function checkSessions(
	ids: string[],
	placement: SessionPlacement,
	cfg: Config,
	opts: DoctorOptions
): Promise<SessionsChecked> {
	const unreachable: string[] = [];
	const saves = new Set<string>();
	const images = new Map<string, string[]>();
	const newer: string[] = [];
	let pending = 0;
	let reachable = 0;
	let version = '';
	const queue = [...ids];
	const worker = async () => {
		for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
			try {
				const loc = await withTimeout(placement.locate(id), opts.timeoutMs);
				if (isFileUrl(loc.url) && !(await stat(filePathOf(loc.url)).catch(() => undefined)))
					throw new Error('its database file is missing');
				const client = await openClient(loc.url, loc.authToken, 1);
				try {
					const s = await databaseState(client, sessionMigrations, opts.timeoutMs);
					// No saves table yet: the session is older than save slots, so it has none.
					for (const database of (await saveDatabases(client, opts.timeoutMs)) ?? []) saves.add(database);
					images.set(id, await withTimeout(sessionImageKeys(client), opts.timeoutMs));
					reachable++;
					version = s.version;
					if (s.pending) pending++;
					if (s.unknown.length) newer.push(id);
				} finally {
					client.close();
				}
			} catch (err) {
				unreachable.push(`${id} (${reason(err)})`);
			}
		}
	};
	await Promise.all(Array.from({ length: SESSION_CHECK_CONCURRENCY }, worker));
	const out: Finding[] = [];
	const where = cfg.turso ? 'on Turso' : isFileUrl(cfg.sessionDb.urlTemplate) ? 'files' : 'remote';
	if (ids.length === 0) out.push({ area: 'session databases', status: 'info', message: 'no play sessions yet' });
	else
		out.push({
			area: 'session databases',
			status: unreachable.length ? 'fail' : 'ok',
			message: `${reachable}/${ids.length} reachable (${where}${version ? `, SQLite ${version}` : ''})`
		});
	if (unreachable.length)
		out.push({
			area: 'session databases',
			status: 'fail',
			message: `unreachable: ${unreachable.slice(0, 5).join('; ')}${unreachable.length > 5 ? `; and ${unreachable.length - 5} more` : ''}`
		});
	if (pending)
		out.push({
			area: 'session databases',
			status: 'warn',
			message: `${pending} with pending migrations (applied when each is next opened)`
		});
	if (newer.length) out.push({ area: 'session databases', status: 'fail', message: `written by a newer Kantera: ${newer.join(', ')}` });
	return { findings: out, saves: unreachable.length ? undefined : saves, images };
}
