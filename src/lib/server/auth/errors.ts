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
