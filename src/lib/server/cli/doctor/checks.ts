/**
 * The checks of `kantera doctor`. They only read: no migration is applied, nothing is created (the image
 * store probe writes and removes one file, or one object in the bucket). Each network check has a time limit, so an offline server
 * gets a clear "unreachable" quickly instead of a hang.
 */
import { drizzle } from 'drizzle-orm/libsql';
import type { Client } from '@libsql/client';
import { readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseConfig, ConfigError, type Config } from '../../config';
import {
	openClient,
	isFileUrl,
	controlSchema,
	sqlText,
	TemplatePlacement,
	TursoPlacement,
	controlMigrations,
	sessionMigrations,
	type SessionPlacement,
	type ControlDb,
	type Migration
} from '../../db';
import { filePathOf } from '../../db/local-files';
import { S3ImageStore } from '../../images';
import { probeHttp, reason, redactUrl, withTimeout } from './probe';

export type Status = 'ok' | 'warn' | 'fail' | 'info';

export interface Finding {
	area: string;
	status: Status;
	message: string;
}

export interface DoctorOptions {
	/** Time limit of each network probe. */
	timeoutMs: number;
	/** Retry pending Turso deletions now (the one thing the doctor may change). */
	repair: boolean;
}

/** Session databases opened at once while checking them. */
const SESSION_CHECK_CONCURRENCY = 4;
/** A scheduled backup older than this is reported. */
const BACKUP_STALE_MS = 2 * 24 * 3_600_000;

interface DbState {
	version: string;
	applied: number;
	pending: number;
	unknown: string[];
}

async function databaseState(client: Client, bundled: readonly Migration[], timeoutMs: number): Promise<DbState> {
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

function migrationsText(s: DbState, total: number): { status: Status; text: string } {
	if (s.unknown.length)
		return {
			status: 'fail',
			text: `has migration(s) this Kantera does not know (${s.unknown.join(', ')}): it was written by a newer version`
		};
	if (s.pending) return { status: 'warn', text: `${s.pending} of ${total} migration(s) pending (applied when the server opens it)` };
	return { status: 'ok', text: `${total}/${total} migrations applied` };
}

function configSummary(cfg: Config): Finding[] {
	const info = (message: string): Finding => ({ area: 'config', status: 'info', message });
	const llm = cfg.llm.configured
		? `${cfg.llm.provider} ${cfg.llm.model}${cfg.llm[cfg.llm.provider].baseUrl ? ` at ${redactUrl(cfg.llm[cfg.llm.provider].baseUrl ?? '')}` : ''}`
		: 'not configured';
	return [
		{ area: 'config', status: 'ok', message: 'environment valid' },
		info(`data dir ${cfg.dataDir}`),
		info(`control database ${redactUrl(cfg.controlDb.url)}`),
		info(
			`session databases ${cfg.turso ? `on Turso (org ${cfg.turso.org}, group ${cfg.turso.group}), ` : ''}${redactUrl(cfg.sessionDb.urlTemplate)}`
		),
		info(`LLM ${llm}; embeddings ${cfg.embeddings.provider}; images ${cfg.images.provider}`),
		info(
			cfg.backup.cron
				? `backups "${cfg.backup.cron}" into ${cfg.backup.dir ?? '?'}, keeping ${cfg.backup.keep}`
				: 'no scheduled backups (KANTERA_BACKUP_CRON)'
		)
	];
}

async function checkSessions(ids: string[], placement: SessionPlacement, cfg: Config, opts: DoctorOptions): Promise<Finding[]> {
	const unreachable: string[] = [];
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
	return out;
}

async function checkOrphans(ids: Set<string>, cfg: Config, turso: TursoPlacement | undefined, opts: DoctorOptions): Promise<Finding[]> {
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
	const template = filePathOf(cfg.sessionDb.urlTemplate);
	const dir = path.dirname(template);
	const [prefix, suffix] = path.basename(template).split('{id}');
	const files = await readdir(dir).catch(() => []);
	const stray = files.filter(
		(f) =>
			f.startsWith(prefix ?? '') && f.endsWith(suffix ?? '') && !ids.has(f.slice((prefix ?? '').length, f.length - (suffix ?? '').length))
	);
	return stray.length
		? [
				{
					area,
					status: 'warn',
					message: `${stray.length} session database file(s) with no session in ${dir}: ${stray.slice(0, 5).join(', ')}`
				}
			]
		: [{ area, status: 'ok', message: 'none' }];
}

const IMAGE_AREA = 'image store';

function strayImages(stray: string[]): Finding[] {
	return stray.length
		? [
				{
					area: IMAGE_AREA,
					status: 'warn',
					message: `${stray.length} image folder(s) of deleted sessions: ${stray.slice(0, 5).join(', ')}`
				}
			]
		: [];
}

/**
 * The bucket of an S3-compatible store: a probe object put and deleted proves it reachable and writable
 * with the configured keys. Reported by bucket and endpoint; the keys never appear.
 */
async function checkBucket(
	cfg: Extract<Config['imageStore'], { kind: 's3' }>,
	timeoutMs: number
): Promise<{ ok: boolean; findings: Finding[] }> {
	const store = new S3ImageStore(cfg);
	const where = `bucket ${cfg.bucket} at ${redactUrl(cfg.endpoint)}${cfg.prefix ? ` (prefix ${cfg.prefix})` : ''}`;
	const start = Date.now();
	const signal = AbortSignal.timeout(timeoutMs);
	try {
		await withTimeout(store.probe(signal), timeoutMs);
	} catch (err) {
		const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError' || err.name === 'ProbeTimeout');
		const why = timedOut ? `no answer within ${timeoutMs} ms` : reason(err);
		return { ok: false, findings: [{ area: IMAGE_AREA, status: 'fail', message: `${where} is not usable: ${why}` }] };
	}
	return {
		ok: true,
		findings: [
			{
				area: IMAGE_AREA,
				status: 'ok',
				message: `${where} reachable and writable (probe object put and deleted, ${Date.now() - start} ms)`
			}
		]
	};
}

/** The sessions with images in the bucket that have no play session any more (only once the bucket answered). */
async function checkBucketFolders(
	cfg: Extract<Config['imageStore'], { kind: 's3' }>,
	ids: Set<string>,
	timeoutMs: number
): Promise<Finding[]> {
	try {
		const folders = await withTimeout(new S3ImageStore(cfg).sessionFolders(AbortSignal.timeout(timeoutMs)), timeoutMs);
		return [
			{ area: IMAGE_AREA, status: 'info', message: `images of ${folders.filter((f) => ids.has(f)).length} session(s) in the bucket` },
			...strayImages(folders.filter((f) => !ids.has(f)))
		];
	} catch (err) {
		return [{ area: IMAGE_AREA, status: 'warn', message: `could not list the bucket's session folders: ${reason(err)}` }];
	}
}

/** The configured image store; `ids` are the play sessions (undefined: none can be known, the control database is missing). */
async function checkImages(cfg: Config, ids: Set<string> | undefined, opts: DoctorOptions): Promise<Finding[]> {
	const area = IMAGE_AREA;
	if (cfg.imageStore.kind === 's3') {
		const bucket = await checkBucket(cfg.imageStore, opts.timeoutMs);
		return bucket.ok && ids ? [...bucket.findings, ...(await checkBucketFolders(cfg.imageStore, ids, opts.timeoutMs))] : bucket.findings;
	}
	if (!ids) return [];
	const root = path.join(cfg.dataDir, 'images');
	const exists = await stat(root).catch(() => undefined);
	if (!exists) return [{ area, status: 'info', message: `${root} does not exist yet (made with the first image)` }];
	const probe = path.join(root, `.doctor-${process.pid}`);
	try {
		await writeFile(probe, 'probe');
		await rm(probe, { force: true });
	} catch (err) {
		return [{ area, status: 'fail', message: `${root} is not writable: ${reason(err)}` }];
	}
	const folders = (await readdir(root)).filter((f) => !f.startsWith('.'));
	const stray = folders.filter((f) => !ids.has(f));
	return [
		{ area, status: 'ok', message: `${root} writable, images of ${folders.length - stray.length} session(s)` },
		...strayImages(stray)
	];
}

async function checkProviders(cfg: Config, opts: DoctorOptions): Promise<Finding[]> {
	const probes: Array<Promise<Finding>> = [];
	const judge = (area: string, target: string) => async (p: ReturnType<typeof probeHttp>) => {
		const r = await p;
		if (r.ok) return { area, status: 'ok' as const, message: `${target} reachable (${r.detail}, ${r.ms} ms)` };
		if (r.status === 401 || r.status === 403) return { area, status: 'fail' as const, message: `${target} refused the key (${r.detail})` };
		if (r.status !== undefined) return { area, status: 'warn' as const, message: `${target} answered ${r.detail} (${r.ms} ms)` };
		return { area, status: 'fail' as const, message: `${target} unreachable: ${r.detail} (after ${r.ms} ms)` };
	};
	if (cfg.llm.configured) {
		if (cfg.llm.provider === 'openai') {
			const base = (cfg.llm.openai.baseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
			probes.push(
				judge(
					'LLM provider',
					`${redactUrl(base)}/models`
				)(probeHttp(`${base}/models`, cfg.llm.openai.apiKey ? { authorization: `Bearer ${cfg.llm.openai.apiKey}` } : {}, opts.timeoutMs))
			);
		} else {
			const base = (cfg.llm.anthropic.baseUrl ?? 'https://api.anthropic.com').replace(/\/+$/, '');
			probes.push(
				judge(
					'LLM provider',
					`${redactUrl(base)}/v1/models`
				)(
					probeHttp(`${base}/v1/models`, { 'x-api-key': cfg.llm.anthropic.apiKey ?? '', 'anthropic-version': '2023-06-01' }, opts.timeoutMs)
				)
			);
		}
	} else probes.push(Promise.resolve({ area: 'LLM provider', status: 'warn', message: cfg.llm.reason }));
	if (cfg.embeddings.provider === 'openai') {
		const base = cfg.embeddings.baseUrl.replace(/\/+$/, '');
		probes.push(
			judge(
				'embeddings provider',
				`${redactUrl(base)}/models`
			)(probeHttp(`${base}/models`, cfg.embeddings.apiKey ? { authorization: `Bearer ${cfg.embeddings.apiKey}` } : {}, opts.timeoutMs))
		);
	}
	if (cfg.images.provider === 'openai') {
		const base = (cfg.images.baseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
		probes.push(
			judge(
				'image provider',
				`${redactUrl(base)}/models`
			)(probeHttp(`${base}/models`, cfg.images.apiKey ? { authorization: `Bearer ${cfg.images.apiKey}` } : {}, opts.timeoutMs))
		);
	}
	return Promise.all(probes);
}

async function checkBackups(cfg: Config): Promise<Finding[]> {
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

export async function runDoctor(env: Record<string, string | undefined>, opts: DoctorOptions): Promise<Finding[]> {
	let cfg: Config;
	try {
		cfg = parseConfig(env);
	} catch (err) {
		if (err instanceof ConfigError) return [{ area: 'config', status: 'fail', message: err.message.replace(/\n\s*/g, ' ') }];
		throw err;
	}
	const findings = configSummary(cfg);
	// Providers are probed meanwhile: the slowest check sets the pace, not their sum.
	const providers = checkProviders(cfg, opts);
	let client: Client | undefined;
	try {
		if (isFileUrl(cfg.controlDb.url) && !(await stat(filePathOf(cfg.controlDb.url)).catch(() => undefined))) {
			findings.push({
				area: 'control database',
				status: 'info',
				message: `${filePathOf(cfg.controlDb.url)} does not exist yet (created when the server first starts)`
			});
			// A bucket is there whether or not the server ever started: prove it now rather than at the first image.
			findings.push(...(await checkImages(cfg, undefined, opts)));
			findings.push(...(await providers), ...(await checkBackups(cfg)));
			return findings;
		}
		client = await openClient(cfg.controlDb.url, cfg.controlDb.authToken, 2);
		const start = Date.now();
		const state = await databaseState(client, controlMigrations, opts.timeoutMs);
		const m = migrationsText(state, controlMigrations.length);
		findings.push({
			area: 'control database',
			status: m.status,
			message: `reachable (SQLite ${state.version}, ${Date.now() - start} ms); ${m.text}`
		});
		const hasSessions = state.applied > 0;
		const ids = hasSessions
			? (await withTimeout(client.execute('SELECT id FROM play_sessions ORDER BY id'), opts.timeoutMs)).rows.map((r) => sqlText(r.id))
			: [];
		const c = client;
		const control: ControlDb = { client: c, db: drizzle(c, { schema: controlSchema }), close: () => c.close() };
		const turso =
			cfg.turso && state.pending === 0
				? new TursoPlacement({
						cfg: { sessionDb: cfg.sessionDb, turso: cfg.turso },
						control,
						retry: { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 }
					})
				: undefined;
		if (cfg.turso && !turso)
			findings.push({
				area: 'orphaned databases',
				status: 'warn',
				message: 'Turso databases not checked until the control database is migrated (start the server once)'
			});
		const placement = turso ?? new TemplatePlacement(cfg);
		findings.push(...(await checkSessions(ids, placement, cfg, opts)));
		const idSet = new Set(ids);
		if (!cfg.turso || turso) findings.push(...(await checkOrphans(idSet, cfg, turso, opts)));
		findings.push(...(await checkImages(cfg, idSet, opts)));
	} catch (err) {
		findings.push({ area: 'control database', status: 'fail', message: `${redactUrl(cfg.controlDb.url)} unreachable: ${reason(err)}` });
	} finally {
		client?.close();
	}
	findings.push(...(await providers));
	findings.push(...(await checkBackups(cfg)));
	return findings;
}
