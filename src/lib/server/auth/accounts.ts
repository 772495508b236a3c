/**
 * What an administrator can do to an account besides its tier: suspend it (no way in, its data kept), end every
 * sign-in it has (cookie sessions and API tokens), and make a one-time password-reset link to pass on (this server
 * sends no mail). Deleting an account with all its data spans sessions and presets: see api/accounts.ts.
 */
import { and, eq, gt, isNull } from 'drizzle-orm';
import * as v from 'valibot';
import { controlSchema } from '../db';
import { hashPassword } from './password';
import { randomSecret, sha256Hex } from './secrets';
import { toAuthUser, type AuthDeps, type AuthUser } from './users';
import { PasswordSchema, parseField } from './validation';
import type { Language } from '../../types/settings';

const { users, authSessions, apiTokens, passwordResets } = controlSchema;

/** How long a reset link works: long enough to pass on by hand, short enough not to linger. */
export const PASSWORD_RESET_HOURS = 24;
const HOUR_MS = 60 * 60 * 1000;

/** Every cookie session and API token of the account, gone: its devices and scripts must sign in again. */
export async function revokeSignIns(deps: AuthDeps, userId: string): Promise<void> {
	await deps.control.db.batch([
		deps.control.db.delete(authSessions).where(eq(authSessions.userId, userId)),
		deps.control.db.delete(apiTokens).where(eq(apiTokens.userId, userId))
	]);
}

/**
 * Suspends (or un-suspends) the account. Suspending also ends its sign-ins, so a browser already signed in is out
 * at its next request; sign-in by password or provider is refused while it lasts. Null when there is no such user.
 */
export async function setSuspended(deps: AuthDeps, userId: string, suspended: boolean, now = Date.now()): Promise<AuthUser | null> {
	const [row] = await deps.control.db
		.update(users)
		.set({ suspendedAt: suspended ? now : null })
		.where(eq(users.id, userId))
		.returning();
	if (!row) return null;
	if (suspended) await revokeSignIns(deps, userId);
	return toAuthUser(row);
}

/** Removes the account row; its sign-ins, identities, favourites and reports go with it by foreign key. */
export async function deleteUserRow(deps: AuthDeps, userId: string): Promise<void> {
	await deps.control.db.delete(users).where(eq(users.id, userId));
}

/** A new reset link's token (shown once) for the account; earlier unused links of it stop working. */
export async function createPasswordReset(deps: AuthDeps, userId: string, now = Date.now()): Promise<{ token: string; expiresAt: Date }> {
	const token = randomSecret();
	const expiresAt = now + PASSWORD_RESET_HOURS * HOUR_MS;
	await deps.control.db.batch([
		deps.control.db
			.update(passwordResets)
			.set({ usedAt: now })
			.where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt))),
		deps.control.db.insert(passwordResets).values({ tokenHash: sha256Hex(token), userId, createdAt: now, expiresAt })
	]);
	return { token, expiresAt: new Date(expiresAt) };
}

const ResetTokenSchema = v.pipe(v.string(), v.regex(/^[\w-]{20,100}$/));

/** The account a reset link is for while it works (unused, unexpired, account not suspended); else null. */
export async function passwordResetUser(deps: AuthDeps, token: unknown, now = Date.now()): Promise<AuthUser | null> {
	const parsed = v.safeParse(ResetTokenSchema, token);
	if (!parsed.success) return null;
	const [row] = await deps.control.db
		.select({ id: users.id, name: users.name, isAdmin: users.isAdmin, tier: users.tier })
		.from(passwordResets)
		.innerJoin(users, eq(users.id, passwordResets.userId))
		.where(
			and(
				eq(passwordResets.tokenHash, sha256Hex(parsed.output)),
				isNull(passwordResets.usedAt),
				gt(passwordResets.expiresAt, now),
				isNull(users.suspendedAt)
			)
		)
		.limit(1);
	return row ? toAuthUser(row) : null;
}

/**
 * Sets the new password through a working link, once: the link is spent in the same statement that checks it (two
 * tabs submitting at once cannot both succeed), and every other sign-in of the account ends. Null when the link
 * does not work (any more); the password's field error (in `language`) when it breaks the rules.
 */
export async function resetPassword(
	deps: AuthDeps,
	token: unknown,
	password: unknown,
	{ now = Date.now(), language = 'en' }: { now?: number; language?: Language } = {}
): Promise<AuthUser | null> {
	const valid = parseField(PasswordSchema, 'password', password, language);
	const user = await passwordResetUser(deps, token, now);
	if (!user) return null;
	const spent = await deps.control.db
		.update(passwordResets)
		.set({ usedAt: now })
		.where(and(eq(passwordResets.tokenHash, sha256Hex(String(token))), isNull(passwordResets.usedAt)))
		.returning({ userId: passwordResets.userId });
	if (spent.length === 0) return null;
	await deps.control.db
		.update(users)
		.set({ passwordHash: await hashPassword(valid) })
		.where(eq(users.id, user.id));
	await revokeSignIns(deps, user.id);
	return user;
}
