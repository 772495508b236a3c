/** The shapes environment values take, shared by the settings groups: each trims the text, then checks it. */
import * as v from 'valibot';

export const NonEmpty = v.pipe(v.string(), v.trim(), v.minLength(1));
export const HttpUrl = v.pipe(
	v.string(),
	v.trim(),
	v.url('must be a URL'),
	v.regex(/^https?:\/\//i, 'must start with http:// or https://')
);
export const Bool = v.pipe(
	v.string(),
	v.trim(),
	v.toLowerCase(),
	v.picklist(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'], 'must be true or false'),
	v.transform((s) => ['1', 'true', 'yes', 'on'].includes(s))
);
export const NonNegativeInt = v.pipe(v.string(), v.trim(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number));
export const PositiveInt = v.pipe(
	v.string(),
	v.trim(),
	v.regex(/^\d+$/, 'must be a whole number greater than 0'),
	v.transform(Number),
	v.minValue(1, 'must be greater than 0')
);
/** An amount in US dollars; `example` is shown in the error. */
export const dollars = (example: string) =>
	v.pipe(v.string(), v.trim(), v.regex(/^\d+(\.\d+)?$/, `must be an amount in US dollars, e.g. ${example}`), v.transform(Number));
