/**
 * Reading the turn form's failure (`fail(…, { turn: { text, error } })`) back in the browser, where
 * an enhanced form hands it over as untyped data, and wording it for the reader.
 */
import type { Translate } from './play.svelte';
import type { TurnFormError } from './types';

function record(v: unknown): Record<string, unknown> | null {
	return typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...v } : null;
}

export function readTurnFormError(data: unknown): TurnFormError | null {
	const e = record(record(record(data)?.turn)?.error);
	if (!e) return null;
	switch (e.code) {
		case 'empty':
		case 'conflict':
		case 'notConfigured':
			return { code: e.code };
		case 'tooLong':
			return typeof e.length === 'number' && typeof e.max === 'number' ? { code: 'tooLong', length: e.length, max: e.max } : null;
		case 'quota':
			return typeof e.resetsAt === 'string' ? { code: 'quota', resetsAt: e.resetsAt } : null;
		case 'invalid':
			return typeof e.message === 'string' ? { code: 'invalid', message: e.message } : null;
		default:
			return null;
	}
}

export function describeTurnFormError(error: TurnFormError, t: Translate, locale: string): string {
	switch (error.code) {
		case 'empty':
			return t('play.error.empty');
		case 'tooLong':
			return t('play.error.tooLong', { length: error.length, max: error.max });
		case 'conflict':
			return t('play.error.conflict');
		case 'quota':
			return t('play.error.quota', { time: new Date(error.resetsAt).toLocaleString(locale) });
		case 'notConfigured':
			return t('play.error.notConfigured');
		case 'invalid':
			return t('play.error.invalid', { message: error.message });
	}
}
