/**
 * Typed auth errors. Messages are safe to show to the person at the keyboard: they never contain a
 * password or a token, and sign-in failures do not say whether the account exists.
 */

/** Base class, so routes and the CLI can tell "the user did something wrong" from a bug. */
export class AuthError extends Error {
	constructor(message: string) {
		super(message);
		this.name = new.target.name;
	}
}

/** One message for "no such user" and "wrong password", so sign-in cannot be used to list accounts. */
export class InvalidCredentialsError extends AuthError {
	constructor() {
		super('Wrong username or password.');
	}
}

/** The right password of an account an administrator suspended: told plainly, since only its owner gets this far. */
export class AccountSuspendedError extends AuthError {
	constructor() {
		super('This account is suspended. Ask the operator of this server.');
	}
}

const SECOND_MS = 1000;
const MINUTE_S = 60;

/** "40 seconds", "3 minutes": how long to wait, rounded up. */
function waitText(seconds: number): string {
	if (seconds < MINUTE_S) return `${seconds} second${seconds === 1 ? '' : 's'}`;
	const minutes = Math.ceil(seconds / MINUTE_S);
	return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * Too many failed sign-ins for the name or from the address. Worded the same whether or not the
 * account exists. `retryAfterSeconds` is for the Retry-After header.
 */
export class SignInThrottledError extends AuthError {
	readonly retryAfterSeconds: number;
	constructor(
		readonly retryAt: Date,
		now: number
	) {
		const seconds = Math.max(1, Math.ceil((retryAt.getTime() - now) / SECOND_MS));
		super(`Too many failed attempts. Wait ${waitText(seconds)} before trying again.`);
		this.retryAfterSeconds = seconds;
	}
}

export class SignupDisabledError extends AuthError {
	constructor() {
		super('Sign-up is closed on this server. Ask its operator for an account.');
	}
}

export class UsernameTakenError extends AuthError {
	constructor(readonly username: string) {
		super(`The username "${username}" is already taken.`);
	}
}

export class UnknownUserError extends AuthError {
	constructor(readonly username: string) {
		super(`There is no user named "${username}".`);
	}
}

/** Input that fails validation; `fields` maps each form field to its message. */
export class AuthValidationError extends AuthError {
	constructor(readonly fields: Readonly<Record<string, string>>) {
		super(Object.values(fields).join(' '));
	}
}

/** A Bearer token that is malformed, unknown, revoked or expired. Always answered with 401. */
export class InvalidTokenError extends AuthError {
	constructor(readonly reason: 'malformed' | 'unknown' | 'expired') {
		super(
			reason === 'expired'
				? 'This API token has expired. Create a new one under Settings › API tokens.'
				: reason === 'malformed'
					? 'The Authorization header must be "Bearer <token>" with a Kantera API token (kt_…).'
					: 'This API token is not recognised (it may have been revoked). Create a new one under Settings › API tokens.'
		);
	}
}

export class TokenNotFoundError extends AuthError {
	constructor() {
		super('No such API token.');
	}
}

/** KANTERA_LOCAL_ACCOUNTS=false: passwords are not a way in on this server. */
export class LocalAccountsDisabledError extends AuthError {
	constructor() {
		super('Sign-in with a username and password is turned off on this server. Use one of the sign-in providers.');
	}
}

/** Unlinking would leave the account with no way to sign in. */
export class LastWayInError extends AuthError {
	constructor() {
		super("This is the account's last way to sign in; link another provider before removing it.");
	}
}
