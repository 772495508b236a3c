/**
 * Brute-force protection for sign-in: failures are counted per account name and per client address
 * in the control database (so every server process sees them). Past a number of free failures each
 * further failure locks the key for an exponentially growing delay, capped; while a key is locked no
 * password is even checked. The right password clears the account's count; an address's count is
 * only forgotten after a quiet spell, so signing in to one's own account cannot reset it between
 * guesses at another.
 */
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { controlSchema } from '../db';
import type { AuthDeps } from './users';
import { SignInThrottledError } from './errors';

const { signInFailures } = controlSchema;

export interface ThrottlePolicy {
	/** Failures allowed before the first lock. */
	freeFailures: number;
	/** The lock after the first failure past the free ones; it doubles with each further failure. */
	baseDelayMs: number;
	maxDelayMs: number;
	/** A key with no failure for this long starts again from zero. */
	forgetAfterMs: number;
}

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;

/** One person mistyping is never locked; a guesser gets about four tries an hour once past ten. */
export const ACCOUNT_THROTTLE: ThrottlePolicy = {
	freeFailures: 5,
	baseDelayMs: 2 * SECOND_MS,
	maxDelayMs: 15 * MINUTE_MS,
	forgetAfterMs: 60 * MINUTE_MS
};
/** Looser: several people may share one address (an office, a household behind NAT). */
export const ADDRESS_THROTTLE: ThrottlePolicy = {
	freeFailures: 20,
	baseDelayMs: 2 * SECOND_MS,
	maxDelayMs: 15 * MINUTE_MS,
	forgetAfterMs: 60 * MINUTE_MS
};

/** The lock after the `failures`-th failure in a row (0 while within the free ones). */
export function lockDelayMs(policy: ThrottlePolicy, failures: number): number {
	const excess = failures - policy.freeFailures;
	if (excess <= 0) return 0;
	// 2^30 already dwarfs any sensible cap; the exponent is bounded so the number stays finite.
	return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(excess - 1, 30));
}

/** What a sign-in attempt is counted against. */
export interface ThrottleKeys {
	/** The account name as typed, when it could be a username; compared without case, like names. */
	account: string | null;
	/** The client's address, when known. */
	address: string | null;
}

function keyed(keys: ThrottleKeys): { key: string; policy: ThrottlePolicy }[] {
	const out: { key: string; policy: ThrottlePolicy }[] = [];
	if (keys.account) out.push({ key: `account:${keys.account.toLowerCase()}`, policy: ACCOUNT_THROTTLE });
	if (keys.address) out.push({ key: `address:${keys.address}`, policy: ADDRESS_THROTTLE });
	return out;
}

/** Throws SignInThrottledError while any of the keys is locked. */
export async function assertNotThrottled(deps: AuthDeps, keys: ThrottleKeys, now: number): Promise<void> {
	const names = keyed(keys).map((k) => k.key);
	if (names.length === 0) return;
	const [row] = await deps.control.db
		.select({ until: sql<number | null>`max(${signInFailures.lockedUntil})` })
		.from(signInFailures)
		.where(inArray(signInFailures.key, names));
	const until = Number(row?.until ?? 0);
	if (until > now) throw new SignInThrottledError(new Date(until), now);
}

/**
 * Counts one failure against each key and locks those past their free failures. The count is one
 * atomic upsert per key, so concurrent failures (from any process) are all counted.
 */
export async function recordSignInFailure(deps: AuthDeps, keys: ThrottleKeys, now: number): Promise<void> {
	const db = deps.control.db;
	for (const { key, policy } of keyed(keys)) {
		const [row] = await db
			.insert(signInFailures)
			.values({ key, failures: 1, lastFailureAt: now, lockedUntil: 0 })
			.onConflictDoUpdate({
				target: signInFailures.key,
				set: {
					failures: sql`CASE WHEN ${signInFailures.lastFailureAt} < ${now - policy.forgetAfterMs} THEN 1 ELSE ${signInFailures.failures} + 1 END`,
					lastFailureAt: now
				}
			})
			.returning({ failures: signInFailures.failures });
		const delay = lockDelayMs(policy, row?.failures ?? 1);
		if (delay > 0) {
			await db
				.update(signInFailures)
				.set({ lockedUntil: sql`max(${signInFailures.lockedUntil}, ${now + delay})` })
				.where(eq(signInFailures.key, key));
		}
	}
	// Forget quiet keys whose lock is over, so the table holds only recent trouble (and no stale addresses).
	const quietSince = now - Math.max(ACCOUNT_THROTTLE.forgetAfterMs, ADDRESS_THROTTLE.forgetAfterMs);
	await db.delete(signInFailures).where(and(lt(signInFailures.lastFailureAt, quietSince), lt(signInFailures.lockedUntil, now)));
}

/** After the right password: the account starts again from zero (its address does not). */
export async function clearAccountFailures(deps: AuthDeps, account: string): Promise<void> {
	await deps.control.db.delete(signInFailures).where(eq(signInFailures.key, `account:${account.toLowerCase()}`));
}
