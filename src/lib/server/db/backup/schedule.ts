/** Backups on a schedule inside the server (`KANTERA_BACKUP_CRON`), keeping the newest `KANTERA_BACKUP_KEEP`. */
import { rm } from 'node:fs/promises';
import type { BackupConfig } from '../../config';
import { runBackup, type BackupDeps } from './backup';
import { listBackups } from './files';
import { ProcessScheduler, type Scheduler } from '../../jobs';

/** Deletes complete backups beyond the newest `keep`; returns their names. Hard links keep shared copies alive. */
export async function pruneBackups(root: string, keep: number): Promise<string[]> {
	const old = (await listBackups(root)).slice(keep);
	for (const b of old) await rm(b.dir, { recursive: true, force: true });
	return old.map((b) => b.name);
}

/**
 * Starts the schedule on the scheduler (a server's timers, or the first request after each due time on
 * an isolate host); returns the function that stops it. A run still going when the next is due is skipped.
 */
export function startBackupSchedule(
	deps: BackupDeps,
	cfg: BackupConfig & { cron: string; dir: string },
	scheduler: Scheduler = new ProcessScheduler()
): () => void {
	return scheduler.cron(cfg.cron, async () => {
		try {
			const r = await runBackup(deps, cfg.dir);
			const pruned = await pruneBackups(cfg.dir, cfg.keep);
			const failed = r.manifest.failed.length ? `; ${r.manifest.failed.length} session(s) FAILED (see its manifest)` : '';
			console.info(
				`backup ${r.name}: ${r.copied} database(s) copied, ${r.unchanged} unchanged; ${r.images.copied} image(s) copied, ` +
					`${r.images.unchanged} unchanged${failed}; ${pruned.length} old backup(s) removed`
			);
		} catch (err) {
			console.error(`backup failed: ${err instanceof Error ? err.message : String(err)}`);
		}
	});
}
