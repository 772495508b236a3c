/** Valibot schemas for account input: the single place the rules for names and passwords live. */
import * as v from 'valibot';
import { AuthValidationError } from './errors';
import { hasControlCharacter, said } from '../validation';
import type { Language } from '../../types/settings';

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;
const PASSWORD_MIN = 8;
/** Bounded so a megabyte "password" cannot be used to burn CPU in the KDF. */
export const PASSWORD_MAX = 256;
export const TOKEN_NAME_MAX = 64;
/** A token may live at most ten years; "never expires" is expressed by leaving the expiry out. */
const TOKEN_MAX_DAYS = 3650;

export const UsernameSchema = v.pipe(
	v.string(said('signup.error.name')),
	v.check((text: string) => !hasControlCharacter(text), said('signup.error.nameControl')),
	v.trim(),
	v.minLength(USERNAME_MIN, said('signup.error.nameShort', { min: USERNAME_MIN })),
	v.maxLength(USERNAME_MAX, said('signup.error.nameLong', { max: USERNAME_MAX })),
	v.regex(/^[A-Za-z0-9_.-]+$/, said('signup.error.nameCharacters'))
);

export const PasswordSchema = v.pipe(
	v.string(said('signup.error.password')),
	v.minLength(PASSWORD_MIN, said('signup.error.passwordShort', { min: PASSWORD_MIN })),
	v.maxLength(PASSWORD_MAX, said('signup.error.passwordLong', { max: PASSWORD_MAX }))
);

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
