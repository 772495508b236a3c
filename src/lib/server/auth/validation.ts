/** Valibot schemas for account input: the single place the rules for names and passwords live. */
import * as v from 'valibot';
import { AuthValidationError } from './errors';
import { hasControlCharacter, withoutControlCharacters } from '../validation';
import { translate, type MessageKey } from '../../i18n';
import { isLanguage, type Language } from '../../types/settings';

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;
const PASSWORD_MIN = 8;
/** Bounded so a megabyte "password" cannot be used to burn CPU in the KDF. */
export const PASSWORD_MAX = 256;
export const TOKEN_NAME_MAX = 64;
/** A token may live at most ten years; "never expires" is expressed by leaving the expiry out. */
const TOKEN_MAX_DAYS = 3650;

export const UsernameSchema = v.pipe(
	v.string('Enter a username.'),
	withoutControlCharacters('The username'),
	v.trim(),
	v.minLength(USERNAME_MIN, `A username needs at least ${USERNAME_MIN} characters.`),
	v.maxLength(USERNAME_MAX, `A username has at most ${USERNAME_MAX} characters.`),
	v.regex(/^[A-Za-z0-9_.-]+$/, 'A username may use only letters, digits, "_", "-" and ".".')
);

export const PasswordSchema = v.pipe(
	v.string('Enter a password.'),
	v.minLength(PASSWORD_MIN, `A password needs at least ${PASSWORD_MIN} characters.`),
	v.maxLength(PASSWORD_MAX, `A password has at most ${PASSWORD_MAX} characters.`)
);

/**
 * A message in the language the parse was given (valibot's `lang`, see parseField), English without one: the
 * tokens page answers in the reader's language, the CLI in English.
 */
function said(key: MessageKey, params?: Record<string, number>) {
	return (issue: v.BaseIssue<unknown>) => translate(isLanguage(issue.lang) ? issue.lang : 'en', key, params);
}

export const TokenNameSchema = v.pipe(
	v.string(said('tokens.error.name')),
	v.check((text: string) => !hasControlCharacter(text), said('tokens.error.nameControl')),
	v.trim(),
	v.minLength(1, said('tokens.error.name')),
	v.maxLength(TOKEN_NAME_MAX, said('tokens.error.nameLength', { max: TOKEN_NAME_MAX }))
);

export const TokenDaysSchema = v.pipe(
	v.number(said('tokens.error.days')),
	v.integer(said('tokens.error.wholeDays')),
	v.minValue(1, said('tokens.error.minDays')),
	v.maxValue(TOKEN_MAX_DAYS, said('tokens.error.maxDays', { max: TOKEN_MAX_DAYS }))
);

/** Parses `value` or throws AuthValidationError keyed by `field`, its message in `language` where the schema has one. */
export function parseField<S extends v.GenericSchema>(schema: S, field: string, value: unknown, language?: Language): v.InferOutput<S> {
	const result = v.safeParse(schema, value, { lang: language });
	if (result.success) return result.output;
	throw new AuthValidationError({ [field]: result.issues[0].message });
}
