/**
 * Auth errors worded for the reader of a page, in their language. The errors' own messages stay
 * English: the CLI and the API answer in English; the web forms call `authErrorText`.
 */
import { translate } from '../../i18n/all-languages';
import type { Language } from '../../types/settings';
import {
	AccountSuspendedError,
	AuthError,
	AuthValidationError,
	InvalidCredentialsError,
	LocalAccountsDisabledError,
	SignInThrottledError,
	SignupDisabledError,
	UsernameTakenError
} from './errors';

const MINUTE_S = 60;

/** "40 seconds" / "40 秒", "3 minutes" / "3 分": how long to wait, rounded up like the English message. */
function waitText(language: Language, seconds: number): string {
	if (seconds < MINUTE_S)
		return seconds === 1 ? translate(language, 'auth.error.second') : translate(language, 'auth.error.seconds', { n: seconds });
	const minutes = Math.ceil(seconds / MINUTE_S);
	return minutes === 1 ? translate(language, 'auth.error.minute') : translate(language, 'auth.error.minutes', { n: minutes });
}

/**
 * The message of a refused sign-in or sign-up in `language`. Validation errors are already in the
 * language they were parsed in (see `AuthValidationError.fields`); an error without a translation keeps its English.
 */
export function authErrorText(err: AuthError, language: Language): string {
	if (err instanceof AccountSuspendedError) return translate(language, 'auth.error.suspended');
	if (err instanceof InvalidCredentialsError) return translate(language, 'auth.error.credentials');
	if (err instanceof SignInThrottledError)
		return translate(language, 'auth.error.throttled', { wait: waitText(language, err.retryAfterSeconds) });
	if (err instanceof SignupDisabledError) return translate(language, 'signup.closed');
	if (err instanceof LocalAccountsDisabledError) return translate(language, 'auth.error.localOff');
	if (err instanceof UsernameTakenError) return translate(language, 'signup.error.taken', { name: err.username });
	if (err instanceof AuthValidationError) return Object.values(err.fields).join(' ');
	return err.message;
}
