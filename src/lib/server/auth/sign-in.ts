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
import { assertNotThrottled, clearAccountFailures, recordSignInFailure, type ThrottleKeys } from './throttle';

export interface AttemptContext {
	/** The client's address (adapter-node's ADDRESS_HEADER/XFF_DEPTH when set, else the socket's); null when unknown. */
	address: string | null;
	/** Epoch ms; tests move the clock. */
	now?: number;
	/** The language of sign-up's field errors (the reader's); English by default. */
	language?: Language;
}

/** The name an attempt counts against: only a name that could be an account. */
function accountOf(name: unknown): string | null {
	const parsed = v.safeParse(UsernameSchema, name);
	return parsed.success ? parsed.output : null;
}

/**
 * Checks the credentials unless the name or the address is locked (SignInThrottledError, without
 * looking at the password). A wrong name or password (InvalidCredentialsError) counts against both.
 */
export async function signIn(deps: AuthDeps, input: { name: unknown; password: unknown }, ctx: AttemptContext): Promise<AuthUser> {
	const now = ctx.now ?? Date.now();
	const keys: ThrottleKeys = { account: accountOf(input.name), address: ctx.address };
	await assertNotThrottled(deps, keys, now);
	try {
		const user = await verifyCredentials(deps, input);
		await clearAccountFailures(deps, user.name);
		return user;
	} catch (err) {
		if (err instanceof InvalidCredentialsError) await recordSignInFailure(deps, keys, now);
		throw err;
	}
}

/**
 * Creates an account from the sign-up form. "That name is taken" tells whether an account exists,
 * which the form cannot avoid (a person must be able to pick a free name), so each such answer counts
 * as a failure of the address: listing accounts through sign-up is as slow as guessing passwords.
 */
export async function signUp(deps: AuthDeps, input: CreateUserInput, ctx: AttemptContext): Promise<AuthUser> {
	const now = ctx.now ?? Date.now();
	const keys: ThrottleKeys = { account: null, address: ctx.address };
	await assertNotThrottled(deps, keys, now);
	try {
		return await createUser(deps, input, { language: ctx.language });
	} catch (err) {
		if (err instanceof UsernameTakenError) await recordSignInFailure(deps, keys, now);
		throw err;
	}
}
