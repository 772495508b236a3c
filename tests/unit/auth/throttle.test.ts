/**
 * The sign-in throttle on a real control database: free failures, then exponentially growing locks
 * per account name and per client address; the right password works again once the lock is over;
 * the counts live in the database, so a second app on the same file (another process) sees them.
 */
import { describe, it, expect, afterEach } from 'vitest';
import { eq } from 'drizzle-orm';
import { testEnv, type TestEnv } from '../../helpers/env';
import { createApp, type App } from '../../../src/lib/server/app';
import {
	createUser,
	signIn,
	signUp,
	lockDelayMs,
	ACCOUNT_THROTTLE,
	ADDRESS_THROTTLE,
	InvalidCredentialsError,
	SignInThrottledError,
	UsernameTakenError
} from '../../../src/lib/server/auth';
import { controlSchema } from '../../../src/lib/server/db';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import path from 'node:path';
import * as v from 'valibot';
import { countingAttempts } from '../../helpers/sign-in-attempts';

const PASSWORD = 'correct horse battery';
const HOME = '198.51.100.7';
const OTHER = '203.0.113.9';
const T0 = Date.UTC(2026, 0, 1, 12);

let env: TestEnv | undefined;
let second: App | undefined;
afterEach(async () => {
	await second?.close();
	second = undefined;
	await env?.cleanup();
	env = undefined;
});

/** The error an attempt ends with (or 'ok'). */
async function attempt(
	app: App,
	name: string,
	password: string,
	address: string | null,
	now: number
): Promise<'ok' | 'wrong' | SignInThrottledError> {
	try {
		await signIn(app, { name, password }, { address, now });
		return 'ok';
	} catch (err) {
		if (err instanceof InvalidCredentialsError) return 'wrong';
		if (err instanceof SignInThrottledError) return err;
		throw err;
	}
}

describe('lockDelayMs', () => {
	it('is free for the first failures, then doubles up to the cap', () => {
		const delays = [1, 5, 6, 7, 8, 14, 15, 100, 10_000].map((n) => lockDelayMs(ACCOUNT_THROTTLE, n));
		expect(delays).toEqual([0, 0, 2000, 4000, 8000, 512_000, 900_000, 900_000, 900_000]);
		expect(lockDelayMs(ADDRESS_THROTTLE, 20)).toBe(0);
		expect(lockDelayMs(ADDRESS_THROTTLE, 21)).toBe(2000);
	});
});

describe('sign-in throttle', () => {
	it('locks an account after five wrong passwords; the right one is refused until the lock is over, then works', async () => {
		env = await testEnv();
		await createUser(env.app, { name: 'alice', password: PASSWORD });
		let now = T0;
		for (let i = 0; i < 6; i++) expect(await attempt(env.app, 'alice', `guess-${i}`, HOME, (now += 100))).toBe('wrong');
		// The sixth failure locked the name for 2 s: even the right password (from anywhere) waits.
		const locked = await attempt(env.app, 'ALICE', PASSWORD, OTHER, (now += 100));
		expect(locked).toBeInstanceOf(SignInThrottledError);
		if (!(locked instanceof SignInThrottledError)) return;
		expect(locked.message).toBe('Too many failed attempts. Wait 2 seconds before trying again.');
		expect(locked.retryAfterSeconds).toBe(2);
		expect(locked.retryAt.getTime()).toBe(T0 + 600 + 2000);
		// Attempts while locked are not counted: the lock does not grow by itself.
		expect(await attempt(env.app, 'alice', 'guess-x', HOME, now + 100)).toBeInstanceOf(SignInThrottledError);
		expect(await attempt(env.app, 'alice', PASSWORD, HOME, T0 + 600 + 2000)).toBe('ok');
		// A success starts the account again from zero.
		const [row] = await env.app.control.db
			.select()
			.from(controlSchema.signInFailures)
			.where(eq(controlSchema.signInFailures.key, 'account:alice'));
		expect(row).toBeUndefined();
	});

	it('doubles the lock with each further failure, up to fifteen minutes', async () => {
		env = await testEnv();
		await createUser(env.app, { name: 'alice', password: PASSWORD });
		let now = T0;
		for (let i = 0; i < 5; i++) await attempt(env.app, 'alice', 'wrong', HOME, now);
		const waits: number[] = [];
		for (let i = 0; i < 12; i++) {
			expect(await attempt(env.app, 'alice', 'wrong', HOME, now)).toBe('wrong');
			const locked = await attempt(env.app, 'alice', PASSWORD, HOME, now);
			if (!(locked instanceof SignInThrottledError)) throw new Error('expected a lock');
			waits.push(locked.retryAfterSeconds);
			now = locked.retryAt.getTime();
		}
		expect(waits).toEqual([2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900]);
	});

	it('treats an unknown name exactly like a real one', async () => {
		env = await testEnv();
		await createUser(env.app, { name: 'alice', password: PASSWORD });
		const outcomes = async (name: string) => {
			const seen: string[] = [];
			for (let i = 0; i < 7; i++) {
				const r = await attempt(env?.app ?? never(), name, 'wrong', null, T0);
				seen.push(r instanceof SignInThrottledError ? r.message : r);
			}
			return seen;
		};
		expect(await outcomes('alice')).toEqual(await outcomes('nobody-here'));
	});

	it('locks an address after twenty failures across names; other addresses and the name from elsewhere still work', async () => {
		env = await testEnv();
		await createUser(env.app, { name: 'alice', password: PASSWORD });
		for (let i = 0; i < 21; i++) expect(await attempt(env.app, `guess${i}`, 'wrong', HOME, T0)).toBe('wrong');
		expect(await attempt(env.app, 'alice', PASSWORD, HOME, T0)).toBeInstanceOf(SignInThrottledError);
		expect(await attempt(env.app, 'alice', PASSWORD, OTHER, T0)).toBe('ok');
		// Signing in to one's own account does not reset the address.
		expect(await attempt(env.app, 'alice', PASSWORD, HOME, T0)).toBeInstanceOf(SignInThrottledError);
		expect(await attempt(env.app, 'alice', PASSWORD, HOME, T0 + 2000)).toBe('ok');
	});

	it('forgets a quiet key after an hour, and prunes it', async () => {
		env = await testEnv();
		await createUser(env.app, { name: 'alice', password: PASSWORD });
		for (let i = 0; i < 5; i++) await attempt(env.app, 'alice', 'wrong', HOME, T0);
		await attempt(env.app, 'carol', 'wrong', null, T0);
		const later = T0 + ACCOUNT_THROTTLE.forgetAfterMs + 1;
		// Five more failures an hour later are free again: the count restarted.
		for (let i = 0; i < 5; i++) expect(await attempt(env.app, 'bob-is-not-here', 'wrong', OTHER, later)).toBe('wrong');
		expect(await attempt(env.app, 'alice', 'wrong', HOME, later)).toBe('wrong');
		expect(await attempt(env.app, 'alice', PASSWORD, HOME, later)).toBe('ok');
		const keys = (await env.app.control.db.select().from(controlSchema.signInFailures)).map((r) => r.key).sort();
		// carol's quiet row is gone; alice's was cleared by her sign-in.
		expect(keys).toEqual([`address:${HOME}`, `address:${OTHER}`, 'account:bob-is-not-here'].sort());
	});

	it('holds across processes: a second app on the same database sees the lock, and concurrent failures all count', async () => {
		env = await testEnv();
		await createUser(env.app, { name: 'alice', password: PASSWORD });
		second = await createApp(env.config);
		const app = env.app;
		await Promise.all(Array.from({ length: 6 }, (_, i) => attempt(i % 2 ? app : (second ?? never()), 'alice', 'wrong', null, T0)));
		const [row] = await app.control.db
			.select()
			.from(controlSchema.signInFailures)
			.where(eq(controlSchema.signInFailures.key, 'account:alice'));
		expect(row?.failures).toBe(6);
		expect(await attempt(second, 'alice', PASSWORD, null, T0 + 1)).toBeInstanceOf(SignInThrottledError);
		expect(await attempt(app, 'alice', PASSWORD, null, T0 + 1)).toBeInstanceOf(SignInThrottledError);
	});

	it('thirty wrong passwords at once, from two processes, get 5 + 1 passwords checked: the rest are refused unchecked', async () => {
		env = await testEnv();
		await createUser(env.app, { name: 'alice', password: PASSWORD });
		const child = spawn(
			process.execPath,
			['--import', 'tsx', path.resolve(import.meta.dirname, '../../helpers/sign-in-process.ts'), 'alice', 'wrong', HOME, String(T0), '15'],
			{ env: { ...process.env, KANTERA_DATA_DIR: env.dir }, stdio: ['pipe', 'pipe', 'inherit'] }
		);
		const exited = once(child, 'exit');
		const Line = v.variant('event', [
			v.object({ event: v.literal('ready') }),
			v.object({ event: v.literal('done'), checks: v.number(), outcomes: v.array(v.picklist(['ok', 'wrong', 'throttled'])) })
		]);
		const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
		const next = async () => {
			const line = await lines.next();
			if (line.done) throw new Error('sign-in-process.ts ended early');
			return v.parse(Line, JSON.parse(line.value));
		};
		expect(await next()).toEqual({ event: 'ready' });
		// Both processes at once: fifteen attempts here, fifteen there.
		child.stdin.end('go\n');
		const [here, there] = await Promise.all([
			countingAttempts(env.app, { name: 'alice', password: 'wrong', address: HOME, now: T0, attempts: 15 }),
			next()
		]);
		await exited;
		if (there.event !== 'done') throw new Error('expected the other process to be done');
		expect(here.checks + there.checks).toBe(ACCOUNT_THROTTLE.freeFailures + 1);
		const outcomes = [...here.outcomes, ...there.outcomes];
		expect(outcomes.filter((o) => o === 'wrong')).toHaveLength(ACCOUNT_THROTTLE.freeFailures + 1);
		expect(outcomes.filter((o) => o === 'throttled')).toHaveLength(30 - ACCOUNT_THROTTLE.freeFailures - 1);
		// Each checked attempt counted once, against the name and the address alike; the refused ones not at all.
		const rows = await env.app.control.db.select().from(controlSchema.signInFailures);
		expect(Object.fromEntries(rows.map((r) => [r.key, r.failures]))).toEqual({ 'account:alice': 6, [`address:${HOME}`]: 6 });
	});

	it('sign-up: a taken name counts against the address, so accounts cannot be listed quickly', async () => {
		env = await testEnv();
		await createUser(env.app, { name: 'alice', password: PASSWORD });
		for (let i = 0; i < 21; i++) {
			await expect(signUp(env.app, { name: 'alice', password: PASSWORD }, { address: HOME, now: T0 })).rejects.toBeInstanceOf(
				UsernameTakenError
			);
		}
		await expect(signUp(env.app, { name: 'alice', password: PASSWORD }, { address: HOME, now: T0 })).rejects.toBeInstanceOf(
			SignInThrottledError
		);
		await expect(signUp(env.app, { name: 'carol', password: PASSWORD }, { address: HOME, now: T0 })).rejects.toBeInstanceOf(
			SignInThrottledError
		);
		expect((await signUp(env.app, { name: 'carol', password: PASSWORD }, { address: OTHER, now: T0 })).name).toBe('carol');
	});
});

function never(): never {
	throw new Error('unreachable');
}
