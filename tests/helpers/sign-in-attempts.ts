/** Sign-in attempts made all at once, counting the passwords actually checked (the throttle's tests). */
import type { App } from '../../src/lib/server/app';
import { InvalidCredentialsError, signIn, SignInThrottledError, verifyCredentials } from '../../src/lib/server/auth';

export type Outcome = 'ok' | 'wrong' | 'throttled';

export async function countingAttempts(
	app: App,
	opts: { name: string; password: string; address: string | null; now: number; attempts: number }
): Promise<{ checks: number; outcomes: Outcome[] }> {
	let checks = 0;
	const verify: typeof verifyCredentials = (deps, input) => {
		checks++;
		return verifyCredentials(deps, input);
	};
	const outcomes = await Promise.all(
		Array.from({ length: opts.attempts }, async (): Promise<Outcome> => {
			try {
				await signIn(app, { name: opts.name, password: opts.password }, { address: opts.address, now: opts.now, verify });
				return 'ok';
			} catch (err) {
				if (err instanceof InvalidCredentialsError) return 'wrong';
				if (err instanceof SignInThrottledError) return 'throttled';
				throw err;
			}
		})
	);
	return { checks, outcomes };
}
