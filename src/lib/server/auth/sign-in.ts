/**
 * Signing in and signing up through the web forms, with the brute-force throttle around them
 * (see throttle.ts). The CLI creates accounts directly (createUser): an operator is not throttled.
 */
import * as v from 'valibot';
import type { AuthDeps, AuthUser, CreateUserInput } from './users';
import { createUser, verifyCredentials } from './users';
import { InvalidCredentialsError, UsernameTakenError } from './errors';
import { UsernameSchema } from './validation';
import type { Language } from '../../types/settings';
import { clearAccountFailures, releaseAttempt, reserveAttempt, type ThrottleKeys } from './throttle';

export interface AttemptContext {
	/** The client's address (adapter-node's ADDRESS_HEADER/XFF_DEPTH when set, else the socket's); null when unknown. */
	address: string | null;
	/** Epoch ms; tests move the clock. */
	now?: number;
	/** The language of sign-up's field errors (the reader's); English by default. */
	language?: Language;
	/** The check of a name and password: `verifyCredentials` unless a test counts the checks through its own. */
	verify?: typeof verifyCredentials;
}

/** The name an attempt counts against: only a name that could be an account. */
function accountOf(name: unknown): string | null {
	const parsed = v.safeParse(UsernameSchema, name);
	return parsed.success ? parsed.output : null;
}

/**
 * Checks the credentials unless the name or the address is locked (SignInThrottledError, without
 * looking at the password). The attempt is counted against both before the check (throttle.ts) and
 * stays counted when the name or password is wrong (InvalidCredentialsError).
 */
export async function signIn(deps: AuthDeps, input: { name: unknown; password: unknown }, ctx: AttemptContext): Promise<AuthUser> {
	const now = ctx.now ?? Date.now();
	const keys: ThrottleKeys = { account: accountOf(input.name), address: ctx.address };
	const reservation = await reserveAttempt(deps, keys, now);
	let user: AuthUser;
	try {
		user = await (ctx.verify ?? verifyCredentials)(deps, input);
	} catch (err) {
		if (!(err instanceof InvalidCredentialsError)) await releaseAttempt(deps, reservation);
		throw err;
	}
	// Not a failure after all; and the account starts again from zero (the address keeps its count).
	await releaseAttempt(deps, reservation);
	await clearAccountFailures(deps, user.name);
	return user;
}

/**
 * Creates an account from the sign-up form. "That name is taken" tells whether an account exists,
 * which the form cannot avoid (a person must be able to pick a free name), so each such answer counts
 * as a failure of the address: listing accounts through sign-up is as slow as guessing passwords.
 */
export async function signUp(deps: AuthDeps, input: CreateUserInput, ctx: AttemptContext): Promise<AuthUser> {
	const now = ctx.now ?? Date.now();
	const keys: ThrottleKeys = { account: null, address: ctx.address };
	const reservation = await reserveAttempt(deps, keys, now);
	try {
		const user = await createUser(deps, input, { language: ctx.language });
		await releaseAttempt(deps, reservation);
		return user;
	} catch (err) {
		if (!(err instanceof UsernameTakenError)) await releaseAttempt(deps, reservation);
		throw err;
	}
}
