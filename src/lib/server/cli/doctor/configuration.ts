/** The configuration as the doctor reads it: valid or not, and a summary of what is set (secrets and URL passwords left out). */
import type { Config } from '../../config';
import type { Finding } from './finding';
import { redactUrl } from './probe';

export function configSummary(cfg: Config): Finding[] {
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
