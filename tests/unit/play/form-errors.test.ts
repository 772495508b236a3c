import { describe, expect, it } from 'vitest';
import { describeTurnFormError, readTurnFormError } from '../../../src/lib/play/form-errors';
import { translator } from '../../../src/lib/i18n/all-languages';

describe('the turn form refusing a control character', () => {
	const failure = { turn: { text: 'a\u0000b', error: { code: 'controlCharacter' } } };

	it('reads the code back from the untyped form data', () => {
		expect(readTurnFormError(failure)).toEqual({ code: 'controlCharacter' });
	});

	it('is worded in English for an English reader', () => {
		expect(describeTurnFormError({ code: 'controlCharacter' }, translator('en'), 'en')).toBe(
			'The text contains a control character (such as NUL); only tabs and line breaks are allowed.'
		);
	});

	it('is worded in Japanese for a Japanese reader', () => {
		const message = describeTurnFormError({ code: 'controlCharacter' }, translator('ja'), 'ja');
		expect(message).toBe('本文に制御文字（NUL など）が入っています。使えるのはタブと改行だけです。');
		expect(message).not.toMatch(/control character/);
	});
});
