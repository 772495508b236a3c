/** Deployment settings: Turso per session and scheduled backups, validated at start-up. */
import { describe, expect, it } from 'vitest';
import { parseConfig, ConfigError } from '../../../src/lib/server/config';

const base = { KANTERA_DATA_DIR: '/tmp/kantera-deploy-config' };
const turso = { KANTERA_TURSO_ORG: 'acme', KANTERA_TURSO_GROUP: 'default', KANTERA_TURSO_API_TOKEN: 'tok' };

describe('deploy configuration', () => {
	it('is off by default: session databases from the file template, no schedule', () => {
		const cfg = parseConfig(base);
		expect(cfg.turso).toBeUndefined();
		expect(cfg.sessionDb.urlTemplate).toBe('file:/tmp/kantera-deploy-config/sessions/{id}.db');
		expect(cfg.backup).toEqual({ cron: undefined, dir: undefined, keep: 7 });
	});

	it('turns Turso on with all three variables; session databases default to libsql://{hostname}', () => {
		const cfg = parseConfig({ ...base, ...turso });
		expect(cfg.turso).toEqual({ org: 'acme', group: 'default', apiToken: 'tok', apiUrl: 'https://api.turso.tech', dbPrefix: 'kantera-' });
		expect(cfg.sessionDb.urlTemplate).toBe('libsql://{hostname}');
	});

	it('names what is missing or wrong', () => {
		expect(() => parseConfig({ ...base, KANTERA_TURSO_ORG: 'acme' })).toThrow(/KANTERA_TURSO_GROUP, KANTERA_TURSO_API_TOKEN: required/);
		expect(() => parseConfig({ ...base, ...turso, KANTERA_TURSO_DB_PREFIX: 'Bad_Prefix' })).toThrow(/KANTERA_TURSO_DB_PREFIX/);
		expect(() => parseConfig({ ...base, KANTERA_SESSION_DB_URL: 'libsql://{hostname}' })).toThrow(
			/\{hostname\} only exists with KANTERA_TURSO_/
		);
		expect(() => parseConfig({ ...base, KANTERA_SESSION_DB_URL: 'http://db.example/' })).toThrow(ConfigError);
		expect(() => parseConfig({ ...base, KANTERA_BACKUP_CRON: 'every night', KANTERA_BACKUP_DIR: '/b' })).toThrow(
			/KANTERA_BACKUP_CRON: not a cron expression/
		);
		expect(() => parseConfig({ ...base, KANTERA_BACKUP_CRON: '0 3 * * *' })).toThrow(/KANTERA_BACKUP_DIR: required/);
		expect(() => parseConfig({ ...base, KANTERA_BACKUP_KEEP: '0' })).toThrow(/KANTERA_BACKUP_KEEP/);
	});

	it('accepts a nightly schedule', () => {
		const cfg = parseConfig({
			...base,
			KANTERA_BACKUP_CRON: '0 3 * * *',
			KANTERA_BACKUP_DIR: '/var/backups/kantera',
			KANTERA_BACKUP_KEEP: '14'
		});
		expect(cfg.backup).toEqual({ cron: '0 3 * * *', dir: '/var/backups/kantera', keep: 14 });
	});
});
