/**
 * Streams the GM's text into the event log without a write per token: deltas are coalesced and
 * flushed every DELTA_FLUSH_MS (and before anything else is logged), so a reload mid-turn resumes
 * from the log with nothing lost or repeated.
 */
import type { SessionDb } from '../db';
import type { EventBus } from './events';
import { appendEventsQuery } from './events';

/** A piece of the GM's streamed text, as the event log holds it. */
export function textDelta(turnId: string, text: string) {
	return { type: 'text.delta' as const, turnId, text };
}

/** Short enough to feel live (well under the 100 ms paint target), long enough to batch tokens. */
export const DELTA_FLUSH_MS = 40;

export class DeltaWriter {
	private pending = '';
	private timer: ReturnType<typeof setTimeout> | undefined;
	private chain: Promise<void> = Promise.resolve();
	/** The first write that failed, boxed: whatever was thrown, even a falsy value, counts. */
	private failure: { error: unknown } | undefined;

	constructor(
		private readonly s: SessionDb,
		private readonly bus: EventBus,
		private readonly turnId: string
	) {}

	push(text: string): void {
		if (!text) return;
		this.pending += text;
		this.timer ??= setTimeout(() => void this.flush(), DELTA_FLUSH_MS);
	}

	/** Writes what is pending; resolves once everything pushed so far is in the log. */
	flush(): Promise<void> {
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
		const text = this.pending;
		this.pending = '';
		if (text) {
			this.chain = this.chain.then(async () => {
				try {
					await this.s.writes.batch([appendEventsQuery(this.s.writes, textDelta(this.turnId, text))]);
					this.bus.notify(this.s.id);
				} catch (err) {
					// Kept and rethrown by `close`: a log we cannot write is a failed turn.
					this.failure ??= { error: err };
				}
			});
		}
		return this.chain;
	}

	/**
	 * Hands over the text not yet written, once everything flushed earlier is in the log, for the
	 * caller to write in a transaction it makes anyway (a tool-activity event, the turn's commit):
	 * one durable commit instead of two, in the same order. Rethrows a failed earlier flush.
	 */
	async take(): Promise<string> {
		await this.chain;
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
		if (this.failure) throw this.failure.error;
		const text = this.pending;
		this.pending = '';
		return text;
	}

	async close(): Promise<void> {
		await this.flush();
		if (this.failure) throw this.failure.error;
	}
}
