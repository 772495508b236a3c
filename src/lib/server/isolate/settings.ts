/**
 * What an isolate host cannot give the app, checked before its first build: a local disk (the embedded
 * databases, local images, backups) and native code (the local-file driver). A setting that needs one
 * stops the build with a message naming the variable, instead of failing somewhere inside a request.
 */
import { ConfigError, type Config } from '../config';
import { isFileUrl } from '../db';

/** The settings' problems on an isolate host, one line each (empty: none). */
export function isolateProblems(cfg: Config): string[] {
	const problems: string[] = [];
	const remote = 'must be a remote database on Workers (libsql://, https:// or http://), which have no disk to keep a file on';
	if (isFileUrl(cfg.controlDb.url)) problems.push(`KANTERA_CONTROL_DB_URL: ${remote}`);
	if (!cfg.turso && isFileUrl(cfg.sessionDb.urlTemplate))
		problems.push(`KANTERA_SESSION_DB_URL: ${remote} (or use Turso, KANTERA_TURSO_*)`);
	if (cfg.imageStore.kind !== 's3')
		problems.push('KANTERA_IMAGE_STORE: must be s3 on Workers (an R2 bucket through its S3 API, or any S3-compatible bucket)');
	if (cfg.backup.cron)
		problems.push('KANTERA_BACKUP_CRON: backups write to a local folder, which Workers do not have; run `kantera backup` from a machine');
	return problems;
}

/** Throws ConfigError naming every setting an isolate host cannot run. */
export function checkIsolateSettings(cfg: Config): void {
	const problems = isolateProblems(cfg);
	if (problems.length > 0) throw new ConfigError(`Invalid configuration for Workers:\n  ${problems.join('\n  ')}`);
}
