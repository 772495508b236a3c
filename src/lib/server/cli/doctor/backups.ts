/** Scheduled backups: the latest one in the backup folder, its age and whether any session failed in it. */
import type { Config } from '../../config';
import type { Finding } from './finding';

/** A scheduled backup older than this is reported. */
const BACKUP_STALE_MS = 2 * 24 * 3_600_000;

export async function checkBackups(cfg: Config): Promise<Finding[]> {
	if (!cfg.backup.cron || !cfg.backup.dir) return [];
	const { latestBackup } = await import('../../db/backup');
	const last = await latestBackup(cfg.backup.dir);
	if (!last) return [{ area: 'backups', status: 'warn', message: `no backup in ${cfg.backup.dir} yet` }];
	const age = Date.now() - Date.parse(last.manifest.createdAt);
	const failed = last.manifest.failed.length;
	return [
		{
			area: 'backups',
			status: age > BACKUP_STALE_MS || failed ? 'warn' : 'ok',
			message: `last backup ${last.name} (${Math.round(age / 3_600_000)} h ago${failed ? `, ${failed} session(s) failed` : ''})`
		}
	];
}
