/**
 * The request a piece of background work was started in, for hosts that stop a request's work when
 * its response is sent (isolates). The request hook runs each request inside a scope that carries the
 * platform's `waitUntil`; work started anywhere below it (a route kicking a runner, a timer an event
 * stream set up) hands its promise to that `waitUntil`, so the host keeps it alive until it settles.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import * as v from 'valibot';

/** Keeps a promise's work alive after the response (the host's `ExecutionContext.waitUntil`). */
export type WaitUntil = (work: Promise<unknown>) => void;

const scope = new AsyncLocalStorage<{ waitUntil: WaitUntil }>();

/** Runs `fn` (the request) with `waitUntil` as the keeper of the background work it starts. */
export function inRequest<T>(waitUntil: WaitUntil | undefined, fn: () => T): T {
	return waitUntil ? scope.run({ waitUntil }, fn) : fn();
}

/**
 * `fn`, called later from anywhere (a timer shared by several requests), as if from the request that
 * binds it now: what it starts is kept alive by this request's `waitUntil`.
 */
export function bindToRequest<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
	const store = scope.getStore();
	// Outside any request when bound outside one: not under whichever request the caller runs for.
	return (...args) => (store ? scope.run(store, () => fn(...args)) : scope.exit(() => fn(...args)));
}

/** The `waitUntil` of the request this code runs for, if any. */
export function currentWaitUntil(): WaitUntil | undefined {
	return scope.getStore()?.waitUntil;
}

const HasWaitUntil = v.looseObject({ waitUntil: v.function() });
/**
 * Where adapters put it: Cloudflare's `platform.ctx` (and its older name `platform.context`),
 * Netlify's `platform.context`, or a `platform.waitUntil` of an adapter that exposes it directly.
 */
const Platform = v.looseObject({
	waitUntil: v.optional(v.function()),
	ctx: v.optional(v.unknown()),
	context: v.optional(v.unknown())
});

/** The platform's `waitUntil`, bound to its owner (Cloudflare refuses an unbound call), or undefined. */
export function waitUntilOf(platform: unknown): WaitUntil | undefined {
	const p = v.safeParse(Platform, platform);
	if (!p.success) return undefined;
	if (p.output.waitUntil) {
		const fn = p.output.waitUntil;
		return (work) => void fn.call(platform, work);
	}
	for (const owner of [p.output.ctx, p.output.context]) {
		const o = v.safeParse(HasWaitUntil, owner);
		if (o.success) {
			const fn = o.output.waitUntil;
			return (work) => void fn.call(owner, work);
		}
	}
	return undefined;
}
