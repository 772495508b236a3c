/**
 * Instrumentation for the turn bench, wrapped around the real runner's dependencies (never inside
 * the engine): a session pool whose write transactions are timed, an event bus and an embedder that
 * leave marks on a timeline, and a token counter whose time is added up.
 */
import { performance } from 'node:perf_hooks';
import type { Config } from '../../src/lib/server/config';
import { SessionDbPool, type SessionDb } from '../../src/lib/server/db';
import type { Embedder } from '../../src/lib/server/search';
import type { TokenCounter } from '../../src/lib/server/context-window';
import { EventBus } from '../../src/lib/server/events';

export interface Mark {
	name: 'notify' | 'embed' | 'llm' | 'llm-checkpoint' | 'count' | 'write';
	/** performance.now() when it ended (for timed marks) or happened. */
	at: number;
	ms: number;
	/** Process CPU time (user + system) at that moment, ms. */
	cpu: number;
}

/** Process CPU time (user + system) so far, ms: unlike wall time, other processes on the machine don't inflate it. */
export function cpuMs(): number {
	const u = process.cpuUsage();
	return (u.user + u.system) / 1000;
}

export class Probe {
	marks: Mark[] = [];

	reset(): void {
		this.marks = [];
	}

	mark(name: Mark['name'], ms = 0): void {
		this.marks.push({ name, at: performance.now(), ms, cpu: cpuMs() });
	}

	/** Sum of `ms` of marks named `name` in the time range (from, to]. */
	sum(name: Mark['name'], from = -Infinity, to = Infinity): { n: number; ms: number } {
		let n = 0;
		let total = 0;
		for (const m of this.marks) {
			if (m.name !== name || m.at <= from || m.at > to) continue;
			n++;
			total += m.ms;
		}
		return { n, ms: total };
	}
}

/**
 * The durability setting the bench can switch to for comparison. `PRAGMA synchronous` is per
 * connection and cannot change inside a transaction, so it is set on the client's idle connection
 * right before each write transaction takes it (the bench is sequential: one connection is reused).
 */
export const SYNCHRONOUS_NORMAL = 'PRAGMA synchronous=NORMAL';

export class ProbedPool extends SessionDbPool {
	constructor(
		cfg: Pick<Config, 'sessionDb'>,
		private readonly probe: Probe,
		private readonly synchronousNormal = false
	) {
		super(cfg);
	}

	override use<T>(id: string, fn: (s: SessionDb) => Promise<T>): Promise<T> {
		return super.use(id, (s) => {
			const timed: SessionDb = {
				id: s.id,
				client: s.client,
				db: s.db,
				writes: s.writes,
				inWrite: s.inWrite,
				write: async (tx) => {
					const started = performance.now();
					if (this.synchronousNormal) await s.client.execute(SYNCHRONOUS_NORMAL);
					return s.write(tx).finally(() => this.probe.mark('write', performance.now() - started));
				},
				batch: async (statements, mode) => {
					if (mode === 'read') return s.batch(statements, mode);
					const started = performance.now();
					if (this.synchronousNormal) await s.client.execute(SYNCHRONOUS_NORMAL);
					return s.batch(statements, mode).finally(() => this.probe.mark('write', performance.now() - started));
				}
			};
			return fn(timed);
		});
	}
}

export class ProbedBus extends EventBus {
	constructor(private readonly probe: Probe) {
		super();
	}

	override notify(sessionId: string): void {
		this.probe.mark('notify');
		super.notify(sessionId);
	}
}

export class ProbedEmbedder implements Embedder {
	readonly id: string;
	readonly dimensions: number;
	readonly similarityFloor?: number;

	constructor(
		private readonly inner: Embedder,
		private readonly probe: Probe
	) {
		this.id = inner.id;
		this.dimensions = inner.dimensions;
		if (inner.similarityFloor !== undefined) this.similarityFloor = inner.similarityFloor;
	}

	async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
		const started = performance.now();
		try {
			return await this.inner.embed(texts, signal);
		} finally {
			this.probe.mark('embed', performance.now() - started);
		}
	}
}

/** A token counter that can be switched between implementations mid-run and whose time is counted. */
export function probedCounter(probe: Probe, initial: TokenCounter): { count: TokenCounter; use(c: TokenCounter): void } {
	let current = initial;
	return {
		count: (text) => {
			const started = performance.now();
			const n = current(text);
			probe.mark('count', performance.now() - started);
			return n;
		},
		use(c) {
			current = c;
		}
	};
}
