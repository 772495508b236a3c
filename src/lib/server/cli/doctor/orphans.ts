/**
 * Session databases no session records: on Turso, the pending deletions and untracked databases of the
 * group (and, with --repair, a sweep retried now); with database files, the files that are neither a
 * session's nor one of its save slots' (and, with --repair, those files removed after they are listed).
 */
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config';
import { isFileUrl, isSessionId, type TursoPlacement } from '../../db';
import { filePathOf } from '../../db/local-files';
import type { DoctorOptions, Finding } from './finding';
import { reason, withTimeout } from './probe';
import { reportStrays } from './strays';

/** `owners`: the names of every session and save slot database, or undefined when some are unknown (nothing is then called stray). */
export async function checkOrphans(
	owners: Set<string> | undefined,
	cfg: Config,
	turso: TursoPlacement | undefined,
	opts: DoctorOptions
): Promise<Finding[]> {
	const area = 'orphaned databases';
	if (turso) {
		const out: Finding[] = [];
		if (opts.repair) {
			const r = await withTimeout(turso.sweep(), opts.timeoutMs * 3).catch((err: unknown) => ({
				deleted: [],
				failed: [{ name: '(sweep)', error: reason(err) }]
			}));
			out.push({
				area,
				status: r.failed.length ? 'fail' : 'ok',
				message:
					`repair: deleted ${r.deleted.length}, still failing ${r.failed.length}` +
					(r.failed.length ? ` (${r.failed.map((f) => `${f.name}: ${f.error}`).join('; ')})` : '')
			});
		}
		try {
			const o = await withTimeout(turso.orphans(), opts.timeoutMs);
			for (const p of o.pending)
				out.push({
					area,
					status: 'warn',
					message: `Turso database ${p.name} (session ${p.sessionId}) is ${
						p.status === 'deleting'
							? `waiting \
to be deleted after ${p.attempts} \
attempt(s)`
							: 'left from a session that was never created'
					}${p.lastError ? `: ${p.lastError}` : ''}; the \
server retries it every 10 minutes, or run  kantera doctor --repair`
				});
			for (const name of o.untracked)
				out.push({
					area,
					status: 'warn',
					message: `Turso database ${name} is in group ${cfg.turso?.group ?? ''} but no \
session records it (delete it with the Turso CLI if it is not another deployment's)`
				});
			if (o.pending.length === 0 && o.untracked.length === 0) out.push({ area, status: 'ok', message: 'none on Turso' });
		} catch (err) {
			out.push({ area, status: 'fail', message: `Turso Platform API unreachable: ${reason(err)}` });
		}
		return out;
	}
	if (!isFileUrl(cfg.sessionDb.urlTemplate))
		return [{ area, status: 'info', message: 'cannot be listed on a plain libSQL server (deleted sessions have their database emptied)' }];
	if (!owners) return [{ area, status: 'info', message: 'database files not judged: the save slots of unreachable sessions are unknown' }];
	const template = filePathOf(cfg.sessionDb.urlTemplate);
	const dir = path.dirname(template);
	const [prefix = '', suffix = ''] = path.basename(template).split('{id}');
	const files = await readdir(dir).catch(() => []);
	// Only names a session or save could have: the control database may share the folder.
	const stray = files.filter((f) => {
		const id = f.slice(prefix.length, f.length - suffix.length);
		return f.startsWith(prefix) && f.endsWith(suffix) && isSessionId(id) && !owners.has(id);
	});
	if (stray.length === 0) return [{ area, status: 'ok', message: 'none' }];
	return reportStrays({
		area,
		what: `session database file(s) in ${dir} that no session or save slot refers to`,
		names: stray,
		repair: opts.repair,
		remove: async (name) => {
			// A database's WAL and journal go with it.
			for (const extra of ['', '-wal', '-shm', '-journal']) await rm(path.join(dir, `${name}${extra}`), { force: true });
		}
	});
}
