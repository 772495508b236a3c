/** Per-session settings kept in the session's meta table: language and the LLM in use. */
import { meta, type SessionDrizzle, type SessionExec, type SessionTx } from '../db';
import type { Config } from '../config';
import { isLanguage, isProviderName, type Language, type ProviderName } from '../../types/settings';

export interface SessionSettings {
	language: Language;
	provider: ProviderName | undefined;
	model: string | undefined;
}

const KEYS = ['language', 'llm.provider', 'llm.model'] as const satisfies readonly meta.TextKey[];

/** The settings' rows, unrun: for a read batch (`settingsOf` reads them). */
export function settingsQuery(exec: SessionExec) {
	return meta.valuesQuery(exec, KEYS);
}

export async function readSettings(exec: SessionExec, cfg: Pick<Config, 'llm'>): Promise<SessionSettings> {
	return settingsOf(await settingsQuery(exec), cfg);
}

export function settingsOf(rows: readonly { key: string; value: string }[], cfg: Pick<Config, 'llm'>): SessionSettings {
	const get = (k: (typeof KEYS)[number]) => rows.find((r) => r.key === k)?.value;
	const storedLanguage = get('language');
	const language = isLanguage(storedLanguage) ? storedLanguage : 'en';
	const storedProvider = get('llm.provider');
	const provider = isProviderName(storedProvider) ? storedProvider : cfg.llm.configured ? cfg.llm.provider : undefined;
	const model = get('llm.model') ?? (cfg.llm.configured ? cfg.llm.model : undefined);
	return { language, provider, model };
}

export async function writeSettings(tx: SessionTx, settings: Partial<SessionSettings>): Promise<void> {
	for (const query of writeSettingsQueries(tx, settings)) await query;
}

/** `writeSettings`'s upserts, unrun: for a batch. */
export function writeSettingsQueries(db: Pick<SessionDrizzle, 'insert'>, settings: Partial<SessionSettings>) {
	const entries: [meta.TextKey, string | undefined][] = [
		['language', settings.language],
		['llm.provider', settings.provider],
		['llm.model', settings.model]
	];
	return entries.flatMap(([key, value]) => (value === undefined ? [] : [meta.putQuery(db, key, value)]));
}
