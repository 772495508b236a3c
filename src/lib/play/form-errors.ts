/**
 * Reading the turn form's failure (`fail(…, { turn: { text, error } })`) back in the browser, where
 * an enhanced form hands it over as untyped data, and wording it for the reader.
 */
import * as v from 'valibot';
import type { Translate } from './play.svelte';
import { TurnFormErrorSchema, type TurnFormError } from './types';

const TurnFormFailure = v.object({ turn: v.object({ error: TurnFormErrorSchema }) });

export function readTurnFormError(data: unknown): TurnFormError | null {
	const parsed = v.safeParse(TurnFormFailure, data);
	return parsed.success ? parsed.output.turn.error : null;
}

export function describeTurnFormError(error: TurnFormError, t: Translate, locale: string): string {
	switch (error.code) {
		case 'empty':
			return t('play.error.empty');
		case 'tooLong':
			return t('play.error.tooLong', { length: error.length, max: error.max });
		case 'conflict':
			return t('play.error.conflict');
		case 'notYourTurn':
			return t('play.error.notYourTurn', { seat: error.currentSeat });
		case 'quota':
			return t('play.error.quota', { time: new Date(error.resetsAt).toLocaleString(locale) });
		case 'notConfigured':
			return t('play.error.notConfigured');
		case 'controlCharacter':
			return t('play.error.controlCharacter');
		case 'server':
			return t('playError.internal');
		case 'invalid':
			return t('play.error.invalid', { message: error.message });
	}
}
