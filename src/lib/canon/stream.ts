/**
 * A streamed text checked as it grows: each delta releases what can no longer be part of a term, and
 * holds back only an ending that could still spell one (at most the longest term), so the text keeps
 * flowing. A term found whole stops the stream: nothing of it was released.
 */
import { FoldedText } from './fold';
import type { CanonHit, TermMatcher } from './matcher';

export type StreamStep = { hit: CanonHit } | { release: string };

export class StreamCheck {
	private readonly folded = new FoldedText();
	private raw = '';
	/** Folded index the next check starts at: everything before it was released. */
	private from = 0;
	/** Original characters released so far. */
	private released = 0;
	private stopped: CanonHit | undefined;

	constructor(private readonly matcher: TermMatcher) {}

	/** Adds a delta; returns the hit, or the text it made safe to show (possibly none). */
	push(delta: string): StreamStep {
		return this.step(delta, false);
	}

	/** The text is complete: the rest is released unless it ends in a term. */
	end(): StreamStep {
		return this.step('', true);
	}

	/** The held-back length, in original characters (for the benchmark of the look-ahead). */
	get held(): number {
		return this.raw.length - this.released;
	}

	private step(delta: string, done: boolean): StreamStep {
		if (this.stopped) return { hit: this.stopped };
		this.raw += delta;
		this.folded.append(delta);
		if (this.matcher.size === 0) {
			const release = this.raw.slice(this.released);
			this.released = this.raw.length;
			return { release };
		}
		const verdict = this.matcher.check(this.folded, this.from, done);
		if ('hit' in verdict) {
			this.stopped = verdict.hit;
			return { hit: verdict.hit };
		}
		const release = this.raw.slice(this.released, verdict.safe);
		this.released = Math.max(this.released, verdict.safe);
		this.from = verdict.heldFrom;
		return { release };
	}
}
