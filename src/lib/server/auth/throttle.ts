/**
 * Brute-force protection for sign-in: failures are counted per account name and per client address
 * in the control database (so every server process sees them). Past a number of free failures each
 * further failure locks the key for an exponentially growing delay, capped; while a key is locked no
 * password is even checked. An attempt is counted as a failure before its password is checked, and taken
 * back if it succeeds: a burst of attempts, however concurrent, cannot all get past the check. The right
 * password clears the account's count; an address's count is only forgotten after a quiet spell, so
 * signing in to one's own account cannot reset it between guesses at another.
 */
import * as v from 'valibot';
import type { InStatement, InValue } from '@libsql/client';
import { eq } from 'drizzle-orm';
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

/** A key's counters as stored. */
interface Counters {
	failures: number;
	lastFailureAt: number;
	lockedUntil: number;
}

/** What `reserveAttempt` changed on one key: enough to take it back (`releaseAttempt`) if the attempt does not fail. */
interface ReservedKey {
	key: string;
	before: Counters | undefined;
	after: Counters;
}

/** An attempt counted in advance as a failure of each of its keys. */
export interface Reservation {
	readonly keys: readonly ReservedKey[];
}

const CountersRow = v.object({ key: v.string(), failures: v.number(), last_failure_at: v.number(), locked_until: v.number() });

function countersOf(rows: readonly unknown[]): Map<string, Counters> {
	return new Map(
		rows.map((r) => {
			const row = v.parse(CountersRow, r);
			return [row.key, { failures: row.failures, lastFailureAt: row.last_failure_at, lockedUntil: row.locked_until }];
		})
	);
}

/**
 * The attempt counted as one more failure of every key, unless one of them is locked now: then nothing
 * changes. One statement, so a lock set by one key counts for the other only from the next attempt on;
 * the SELECT reads the table it inserts into, so SQLite runs it whole (the lock check included) before
 * writing anything. The lock is `lockDelayMs` in SQL.
 */
function reserveStatement(keyed: readonly { key: string; policy: ThrottlePolicy }[], now: number): InStatement {
	const args: Record<string, InValue> = { now };
	const rows = keyed.map(({ key, policy }, i) => {
		Object.assign(args, {
			[`key${i}`]: key,
			[`free${i}`]: policy.freeFailures,
			[`base${i}`]: policy.baseDelayMs,
			[`cap${i}`]: policy.maxDelayMs,
			[`forget${i}`]: policy.forgetAfterMs
		});
		return `(:key${i}, :free${i}, :base${i}, :cap${i}, :forget${i})`;
	});
	return {
		sql: `WITH attempt(key, free, base, cap, forget) AS (VALUES ${rows.join(', ')}),
counted AS (
	SELECT a.key, a.free, a.base, a.cap, coalesce(f.locked_until, 0) AS held,
		CASE WHEN f.key IS NULL OR f.last_failure_at < :now - a.forget THEN 1 ELSE f.failures + 1 END AS failures
	FROM attempt a LEFT JOIN sign_in_failures f ON f.key = a.key
)
INSERT INTO sign_in_failures (key, failures, last_failure_at, locked_until)
SELECT key, failures, :now,
	CASE WHEN failures <= free THEN held ELSE max(held, :now + min(cap, base << min(failures - free - 1, 30))) END
FROM counted
WHERE NOT EXISTS (SELECT 1 FROM sign_in_failures WHERE key IN (SELECT key FROM attempt) AND locked_until > :now)
ON CONFLICT (key) DO UPDATE SET failures = excluded.failures, last_failure_at = excluded.last_failure_at, locked_until = excluded.locked_until
RETURNING key, failures, last_failure_at, locked_until`,
		args
	};
}

/**
 * Counts the attempt as a failure of each key before the password is checked, or throws
 * SignInThrottledError (counting nothing) while any key is locked. Counting first is what makes the
 * lock hold under concurrency: of any number of attempts at once, from any number of processes, only
 * those counted before the lock was set get to the password (the free failures and the one that sets
 * the lock). An attempt that turns out not to fail is taken back with `releaseAttempt`. One write
 * batch: the counters before, the reservation, and the pruning of quiet keys.
 */
export async function reserveAttempt(deps: AuthDeps, keys: ThrottleKeys, now: number): Promise<Reservation> {
	const list = keyed(keys);
	if (list.length === 0) return { keys: [] };
	const names = list.map((k) => k.key);
	// Forget quiet keys whose lock is over, so the table holds only recent trouble (and no stale addresses).
	const quietSince = now - Math.max(ACCOUNT_THROTTLE.forgetAfterMs, ADDRESS_THROTTLE.forgetAfterMs);
	const [before, reserved] = await deps.control.client.batch(
		[
			{
				sql: `SELECT key, failures, last_failure_at, locked_until FROM sign_in_failures WHERE key IN (${names.map(() => '?').join(', ')})`,
				args: names
			},
			reserveStatement(list, now),
			{ sql: 'DELETE FROM sign_in_failures WHERE last_failure_at < ? AND locked_until < ?', args: [quietSince, now] }
		],
		'write'
	);
	const prior = countersOf(before?.rows ?? []);
	const after = countersOf(reserved?.rows ?? []);
	if (after.size === 0) {
		const until = Math.max(0, ...[...prior.values()].map((c) => c.lockedUntil));
		throw new SignInThrottledError(new Date(until), now);
	}
	return {
		keys: names.flatMap((key) => {
			const mine = after.get(key);
			return mine ? [{ key, before: prior.get(key), after: mine }] : [];
		})
	};
}

/**
 * Takes back a reserved attempt that did not fail (the right password, a sign-up that went through, an
 * error of the server's): one failure less, and the failure time and lock it set put back unless a later
 * attempt has changed them since. A key that had no row before and has no failure left goes.
 */
export async function releaseAttempt(deps: AuthDeps, reservation: Reservation): Promise<void> {
	const statements: InStatement[] = reservation.keys.flatMap(({ key, before, after }) => [
		{
			sql: `UPDATE sign_in_failures SET failures = failures - 1,
	last_failure_at = CASE WHEN last_failure_at = :afterAt THEN :beforeAt ELSE last_failure_at END,
	locked_until = CASE WHEN locked_until = :afterLock THEN :beforeLock ELSE locked_until END
WHERE key = :key AND failures > 0`,
			args: {
				key,
				afterAt: after.lastFailureAt,
				beforeAt: before?.lastFailureAt ?? after.lastFailureAt,
				afterLock: after.lockedUntil,
				beforeLock: before?.lockedUntil ?? 0
			}
		},
		{ sql: 'DELETE FROM sign_in_failures WHERE key = ? AND failures = 0', args: [key] }
	]);
	if (statements.length > 0) await deps.control.client.batch(statements, 'write');
}

/** After the right password: the account starts again from zero (its address does not). */
export async function clearAccountFailures(deps: AuthDeps, account: string): Promise<void> {
	await deps.control.db.delete(signInFailures).where(eq(signInFailures.key, `account:${account.toLowerCase()}`));
}
