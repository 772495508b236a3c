/**
 * Deployment settings: how background work outlives a request (a server process, or an isolate's
 * `waitUntil`), per-session databases created on Turso through its Platform API, and scheduled
 * backups. Turso and backups are off unless configured.
 */
import * as v from 'valibot';
import { HttpUrl, NonEmpty, PositiveInt } from './env-values';
import { Cron } from 'croner';

/** Turso database names: lowercase letters, digits and dashes; the session id (20 characters) is appended. */
const DbPrefix = v.pipe(v.string(), v.trim(), v.regex(/^[a-z0-9-]{0,40}$/, 'must be lowercase letters, digits and dashes (at most 40)'));

/** Spread into the environment schema of config/index.ts. */
export const DEPLOY_ENV_ENTRIES = {
	/**
	 * `process` (a server: Node, Bun, Deno) runs background work on in the process; `request` (an isolate
	 * host) keeps it under the request's `waitUntil` and resumes it from later requests and polls.
	 */
	KANTERA_SCHEDULER: v.optional(v.picklist(['process', 'request'], 'must be process or request'), 'process'),
	/** Turso organization (slug) whose Platform API creates one database per play session. */
	KANTERA_TURSO_ORG: v.optional(NonEmpty),
	/** The group the session databases are created in. */
	KANTERA_TURSO_GROUP: v.optional(NonEmpty),
	/** A Platform API token (it can create and delete databases and mint group tokens). */
	KANTERA_TURSO_API_TOKEN: v.optional(NonEmpty),
	/** The Platform API itself; change it only for a proxy or a compatible service. */
	KANTERA_TURSO_API_URL: v.optional(HttpUrl, 'https://api.turso.tech'),
	/** Session database names are this prefix followed by the session id. */
	KANTERA_TURSO_DB_PREFIX: v.optional(DbPrefix, 'kantera-'),
	/** Where scheduled backups go (each run a new folder inside). */
	KANTERA_BACKUP_DIR: v.optional(NonEmpty),
	/** Cron expression (five fields, the server's local time), e.g. `0 3 * * *` for 03:00 every night. */
	KANTERA_BACKUP_CRON: v.optional(NonEmpty),
	/** How many scheduled backups to keep; older ones are deleted after a successful run. */
	KANTERA_BACKUP_KEEP: v.optional(PositiveInt, '7')
};

type DeployEnv = v.InferOutput<v.ObjectSchema<typeof DEPLOY_ENV_ENTRIES, undefined>> & { KANTERA_DATA_DIR: string };

export interface TursoConfig {
	org: string;
	group: string;
	apiToken: string;
	apiUrl: string;
	dbPrefix: string;
}

export interface BackupConfig {
	/** Undefined when no schedule is set: backups then run only from the command line. */
	cron: string | undefined;
	dir: string | undefined;
	keep: number;
}

export interface DeployConfig {
	scheduler: 'process' | 'request';
	turso: TursoConfig | undefined;
	backup: BackupConfig;
}

const TURSO_VARS = ['KANTERA_TURSO_ORG', 'KANTERA_TURSO_GROUP', 'KANTERA_TURSO_API_TOKEN'] as const;

export function deployConfig(e: DeployEnv): DeployConfig | { error: string } {
	const set = TURSO_VARS.filter((k) => e[k] !== undefined);
	let turso: TursoConfig | undefined;
	if (set.length > 0) {
		const missing = TURSO_VARS.filter((k) => e[k] === undefined);
		if (missing.length > 0)
			return { error: `${missing.join(', ')}: required with ${set.join(', ')} (Turso databases per session need all three)` };
		turso = {
			org: e.KANTERA_TURSO_ORG ?? '',
			group: e.KANTERA_TURSO_GROUP ?? '',
			apiToken: e.KANTERA_TURSO_API_TOKEN ?? '',
			apiUrl: e.KANTERA_TURSO_API_URL.replace(/\/+$/, ''),
			dbPrefix: e.KANTERA_TURSO_DB_PREFIX
		};
	}
	if (e.KANTERA_BACKUP_CRON !== undefined) {
		try {
			new Cron(e.KANTERA_BACKUP_CRON, { paused: true }).stop();
		} catch (err) {
			return {
				error: `KANTERA_BACKUP_CRON: not a cron expression (${err instanceof Error ? err.message : String(err)}), e.g. "0 3 * * *"`
			};
		}
		if (e.KANTERA_BACKUP_DIR === undefined)
			return { error: 'KANTERA_BACKUP_DIR: required with KANTERA_BACKUP_CRON (where the backups go)' };
	}
	return {
		scheduler: e.KANTERA_SCHEDULER,
		turso,
		backup: { cron: e.KANTERA_BACKUP_CRON, dir: e.KANTERA_BACKUP_DIR, keep: e.KANTERA_BACKUP_KEEP }
	};
}
