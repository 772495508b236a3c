/** Valibot schemas for account input: the single place the rules for names and passwords live. */
import * as v from 'valibot';
import { AuthValidationError } from './errors';
import { withoutControlCharacters } from '../validation';

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;
export const PASSWORD_MIN = 8;
/** Bounded so a megabyte "password" cannot be used to burn CPU in the KDF. */
export const PASSWORD_MAX = 256;
export const TOKEN_NAME_MAX = 64;
/** A token may live at most ten years; "never expires" is expressed by leaving the expiry out. */
export const TOKEN_MAX_DAYS = 3650;

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

export const TokenNameSchema = v.pipe(
	v.string('Enter a name for the token.'),
	withoutControlCharacters('The token name'),
	v.trim(),
	v.minLength(1, 'Enter a name for the token.'),
	v.maxLength(TOKEN_NAME_MAX, `A token name has at most ${TOKEN_NAME_MAX} characters.`)
);

export const TokenDaysSchema = v.pipe(
	v.number('Expiry must be a number of days.'),
	v.integer('Expiry must be a whole number of days.'),
	v.minValue(1, 'Expiry must be at least 1 day.'),
	v.maxValue(TOKEN_MAX_DAYS, `Expiry must be at most ${TOKEN_MAX_DAYS} days.`)
);

/** Parses `value` or throws AuthValidationError keyed by `field`. */
export function parseField<S extends v.GenericSchema>(schema: S, field: string, value: unknown): v.InferOutput<S> {
	const result = v.safeParse(schema, value);
	if (result.success) return result.output;
	throw new AuthValidationError({ [field]: result.issues[0].message });
}
