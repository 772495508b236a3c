/**
 * Accounts reached through a sign-in provider. The first sign-in of a person creates their account (the
 * first account of the server is its admin, as with local sign-up) under a unique name proposed from the
 * profile, which they can change; a signed-in person can link more providers, and unlink them as long as
 * one way in remains.
 */
import { and, eq, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { controlSchema, newId } from '../db';
import type { SignInProvider } from '../../types/account';
import { signupOpen, toAuthUser, isUniqueViolation, type AuthDeps, type AuthUser } from './users';
import { UsernameSchema, USERNAME_MAX, USERNAME_MIN } from './validation';
import { AccountSuspendedError, LastWayInError, SignupDisabledError } from './errors';
import { SignInFlowError, type ProviderProfile } from './providers';
import { hasControlCharacter } from '../validation';

const { users, userIdentities } = controlSchema;

export interface LinkedIdentity {
	provider: SignInProvider;
	label: string;
	createdAt: Date;
	lastUsedAt: Date;
}

/** A label longer than this (an odd profile) is cut: it is only shown on the account page. */
const LABEL_MAX = 200;

/**
 * The provider's profile as it may be stored. The subject identifies the account, so one with a control
 * character is refused (the provider answered something unusable); the label is only shown, so control
 * characters are dropped from it and it is cut to a sane length.
 */
function storable(profile: ProviderProfile): ProviderProfile {
	if (hasControlCharacter(profile.subject))
		throw new SignInFlowError('provider', `The ${profile.provider} account id contains a control character.`);
	const label = [...profile.label]
		.filter((ch) => !hasControlCharacter(ch))
		.join('')
		.trim()
		.slice(0, LABEL_MAX);
	return { ...profile, label: label || profile.subject };
}

/** The fallback when no hint yields a usable name. */
const DEFAULT_NAME = 'player';
/** Tries with a numeric suffix before giving up on a base name. */
const MAX_SUFFIX = 9999;

/** A hint made into a valid account name, or undefined: accents dropped, spaces to "_", other characters removed. */
export function nameFromHint(hint: string): string | undefined {
	const ascii = hint
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.trim()
		.replace(/\s+/g, '_')
		.replace(/[^A-Za-z0-9_.-]/g, '')
		.replace(/^[._-]+|[._-]+$/g, '');
	const cut = ascii.slice(0, USERNAME_MAX);
	return v.safeParse(UsernameSchema, cut).success ? cut : undefined;
}

async function nameTaken(deps: AuthDeps, name: string): Promise<boolean> {
	const [row] = await deps.control.db
		.select({ id: users.id })
		.from(users)
		.where(sql`lower(${users.name}) = lower(${name})`)
		.limit(1);
	return row !== undefined;
}

/** The first free name from the hints, else the best hint (or "player") with a number. */
export async function proposeName(deps: AuthDeps, hints: readonly string[]): Promise<string> {
	const usable = hints.map(nameFromHint).filter((x): x is string => x !== undefined);
	const bases = usable.length > 0 ? usable : [DEFAULT_NAME];
	for (const base of bases) if (!(await nameTaken(deps, base))) return base;
	const base = (bases[0] ?? DEFAULT_NAME).slice(0, USERNAME_MAX - 5);
	for (let n = 2; n <= MAX_SUFFIX; n++) {
		const candidate = `${base}-${n}`;
		if (candidate.length >= USERNAME_MIN && !(await nameTaken(deps, candidate))) return candidate;
	}
	return `${DEFAULT_NAME}-${newId().slice(0, 8)}`;
}

async function userOfIdentity(deps: AuthDeps, provider: SignInProvider, subject: string): Promise<AuthUser | null> {
	const [row] = await deps.control.db
		.select({ id: users.id, name: users.name, isAdmin: users.isAdmin, tier: users.tier, suspendedAt: users.suspendedAt })
		.from(userIdentities)
		.innerJoin(users, eq(users.id, userIdentities.userId))
		.where(and(eq(userIdentities.provider, provider), eq(userIdentities.subject, subject)));
	if (row?.suspendedAt != null) throw new AccountSuspendedError();
	return row ? toAuthUser(row) : null;
}

async function touch(deps: AuthDeps, profile: ProviderProfile, now: number): Promise<void> {
	await deps.control.db
		.update(userIdentities)
		.set({ lastUsedAt: now, label: profile.label })
		.where(and(eq(userIdentities.provider, profile.provider), eq(userIdentities.subject, profile.subject)));
}

export interface ProviderSignIn {
	user: AuthUser;
	/** True when this sign-in created the account. */
	created: boolean;
}

/**
 * Signs in the account linked to the profile, or creates one (when sign-up is open, or for the very first
 * account). The account and its identity are written in one batch, so a half-made account never exists.
 */
export async function signInWithProvider(deps: AuthDeps, given: ProviderProfile, now = Date.now()): Promise<ProviderSignIn> {
	const profile = storable(given);
	const existing = await userOfIdentity(deps, profile.provider, profile.subject);
	if (existing) {
		await touch(deps, profile, now);
		return { user: existing, created: false };
	}
	if (!(await signupOpen(deps))) throw new SignupDisabledError();
	const id = newId();
	for (let attempt = 0; ; attempt++) {
		const name = await proposeName(deps, profile.nameHints);
		try {
			await deps.control.db.batch([
				deps.control.db
					.insert(users)
					.values({ id, name, passwordHash: '', isAdmin: sql`(SELECT count(*) = 0 FROM users)`, createdAt: now }),
				deps.control.db.insert(userIdentities).values({
					provider: profile.provider,
					subject: profile.subject,
					userId: id,
					label: profile.label,
					createdAt: now,
					lastUsedAt: now
				})
			]);
			break;
		} catch (err) {
			if (!isUniqueViolation(err) || attempt >= 2) throw err;
			// The same person signing in twice at once: the other request made the account.
			const raced = await userOfIdentity(deps, profile.provider, profile.subject);
			if (raced) return { user: raced, created: false };
			// Another account took the proposed name meanwhile: propose again.
		}
	}
	const user = await userOfIdentity(deps, profile.provider, profile.subject);
	if (!user) throw new Error('the new account vanished');
	return { user, created: true };
}

/** Links a provider account to a signed-in user; already linked to them is fine, to someone else is refused. */
export async function linkIdentity(deps: AuthDeps, userId: string, given: ProviderProfile, now = Date.now()): Promise<void> {
	const profile = storable(given);
	const owner = await userOfIdentity(deps, profile.provider, profile.subject);
	if (owner && owner.id !== userId) throw new SignInFlowError('in_use', 'This provider account is linked to another Kantera account.');
	if (owner) return touch(deps, profile, now);
	try {
		await deps.control.db
			.insert(userIdentities)
			.values({ provider: profile.provider, subject: profile.subject, userId, label: profile.label, createdAt: now, lastUsedAt: now });
	} catch (err) {
		if (isUniqueViolation(err)) throw new SignInFlowError('in_use', 'This provider account is linked to another Kantera account.');
		throw err;
	}
}

export async function listIdentities(deps: AuthDeps, userId: string): Promise<LinkedIdentity[]> {
	const rows = await deps.control.db
		.select()
		.from(userIdentities)
		.where(eq(userIdentities.userId, userId))
		.orderBy(userIdentities.createdAt);
	return rows.map((r) => ({ provider: r.provider, label: r.label, createdAt: new Date(r.createdAt), lastUsedAt: new Date(r.lastUsedAt) }));
}

/**
 * Removes the user's link to `provider`, unless it is their last way in: the count of the other ways
 * (identities, and the password while local accounts are on) is checked in the same statement as the
 * delete, so two unlinks at once can't both pass.
 */
export async function unlinkIdentity(deps: AuthDeps, userId: string, provider: SignInProvider): Promise<void> {
	const password = deps.config.auth.localAccounts
		? sql`(select count(*) from ${users} where ${users.id} = ${userId} and ${users.passwordHash} != '')`
		: sql`0`;
	const others = sql`(select count(*) from ${userIdentities} where ${userIdentities.userId} = ${userId} and ${userIdentities.provider} != ${provider})`;
	const deleted = await deps.control.db
		.delete(userIdentities)
		.where(and(eq(userIdentities.userId, userId), eq(userIdentities.provider, provider), sql`${others} + ${password} > 0`))
		.returning({ provider: userIdentities.provider });
	if (deleted.length > 0) return;
	const [linked] = await deps.control.db
		.select({ p: userIdentities.provider })
		.from(userIdentities)
		.where(and(eq(userIdentities.userId, userId), eq(userIdentities.provider, provider)));
	if (linked) throw new LastWayInError();
}
