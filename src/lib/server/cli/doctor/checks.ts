/**
 * The checks of `kantera doctor`, in the order they report: the configuration, the control database, the
 * session databases, orphans, the image store, the providers and the backups (one module per theme beside
 * this one). They only read: no migration is applied, nothing is created (the image store probe writes and
 * removes one file, or one object in the bucket); only --repair removes what nothing refers to, listing it
 * first. Each network check has a time limit, so an offline server gets a clear "unreachable" quickly
 * instead of a hang.
 */
import { drizzle } from 'drizzle-orm/libsql/web';
import type { Client } from '@libsql/client';
import { stat } from 'node:fs/promises';
import { parseConfig, ConfigError, type Config } from '../../config';
import {
	openClient,
	isFileUrl,
	controlSchema,
	sqlText,
	TemplatePlacement,
	coverImages,
	TursoPlacement,
	controlMigrations,
	type ControlDb
} from '../../db';
import { filePathOf, serversHolding } from '../../db/local-files';
import { checkBackups } from './backups';
import { configSummary } from './configuration';
import { checkSessions, databaseState, migrationsText } from './databases';
import type { DoctorOptions, Finding } from './finding';
import { checkImages, checkMissingImages } from './image-store';
import { checkOrphans } from './orphans';
import { reason, redactUrl, withTimeout } from './probe';
import { checkProviders } from './providers';
import { coverSlots } from './references';

export async function runDoctor(env: Record<string, string | undefined>, given: DoctorOptions): Promise<Finding[]> {
	let cfg: Config;
	try {
		cfg = parseConfig(env);
	} catch (err) {
		if (err instanceof ConfigError) return [{ area: 'config', status: 'fail', message: err.message.replace(/\n\s*/g, ' ') }];
		throw err;
	}
	const findings = configSummary(cfg);
	// A running server may be making a session whose file is there before its record: nothing is removed under it.
	const served = given.repair ? serversHolding(cfg.dataDir) : [];
	const opts = { ...given, repair: given.repair && served.length === 0 };
	if (served.length)
		findings.push({
			area: 'config',
			status: 'warn',
			message: `--repair not done: a server holds ${cfg.dataDir} (pid ${served.map((l) => `${l.pid} on ${l.host}`).join(', ')}); stop it first`
		});
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
		const sessions = await checkSessions(ids, placement, cfg, opts);
		findings.push(...sessions.findings);
		const idSet = new Set(ids);
		const databases = sessions.saves && new Set([...idSet, ...sessions.saves]);
		if (!cfg.turso || turso) findings.push(...(await checkOrphans(databases, cfg, turso, opts)));
		const covers = await coverSlots(c, opts.timeoutMs);
		const images = await checkImages(cfg, covers && { sessions: idSet, covers }, opts);
		findings.push(...images);
		if (!images.some((f) => f.status === 'fail')) {
			const referenced = new Map(sessions.images);
			for (const cover of await withTimeout(coverImages(c), opts.timeoutMs)) if (cover.image) referenced.set(cover.slot, [cover.image]);
			findings.push(...(await checkMissingImages(cfg, referenced, opts)));
		}
	} catch (err) {
		findings.push({ area: 'control database', status: 'fail', message: `${redactUrl(cfg.controlDb.url)} unreachable: ${reason(err)}` });
	} finally {
		client?.close();
	}
	findings.push(...(await providers));
	findings.push(...(await checkBackups(cfg)));
	return findings;
}
