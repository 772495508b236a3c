/**
 * The canon guard of one player turn (issue 27): the GM's words are checked before the player sees
 * them against the markers of every secret not yet revealed and the words of what this world does not
 * have. Streamed text goes through a look-ahead (`StreamCheck`: held back only while an ending could
 * still spell a term); a tool call that would show a term is refused before it runs.
 *
 * The first hit of a turn asks the GM to write again (the caller withdraws what it showed of that
 * reply, and sends `rewriteNote`); a second one stops the turn (`CanonStoppedError`): nothing of it is
 * recorded. Terms the player wrote this turn are theirs to hear back and are not checked; the
 * anachronisms among them go into the turn's context (`playerNote`).
 */
import { canonTerms, fold, StreamCheck, TermMatcher, type CanonHit, type CanonSource, type CanonTerm, type TermKind } from '../../canon';
import { playerNote, rewriteNote, toolRefusal } from './notes';
import { visibleWords } from './tool-texts';

/** The turn wrote a term again after it was asked to write without it: it ends, recording nothing. */
export class CanonStoppedError extends Error {
	constructor(readonly kind: TermKind) {
		super(`the GM's reply gave away ${kind === 'secret' ? 'an unrevealed secret' : 'something this world does not have'} twice`);
		this.name = 'CanonStoppedError';
	}
}

/** One reply (one LLM call's text) as it streams: what is safe goes to `show`. */
export interface ReplyCheck {
	/** Adds a delta; returns the hit that stops the reply, if any. */
	push(delta: string): CanonHit | undefined;
	/** The reply is complete; returns a term at its very end, if any. */
	end(): CanonHit | undefined;
}

export class TurnCanon {
	private matcher: TermMatcher;
	private readonly exempt: ReadonlySet<string>;
	/** Anachronisms the player named this turn (their context note). */
	private readonly named: CanonTerm[];
	/** Everything shown of the turn's reply so far. */
	private shown = '';
	/** Where the reply being checked began in `shown`: a withdrawal goes back to it. */
	private replyStart = 0;
	/** The reply being checked, as the GM wrote it (the term's spelling for its note). */
	private replyText = '';
	/** Terms hit this turn: the first asks for a rewrite, the second stops the turn. */
	private hits = 0;

	constructor(
		private readonly source: CanonSource,
		revealed: ReadonlySet<string>,
		playerLine: string
	) {
		const used = new TermMatcher(canonTerms(source)).findAll(playerLine).map((h) => h.term);
		this.exempt = new Set(used.map((t) => fold(t.text)));
		this.named = used.filter((t) => t.kind === 'anachronism');
		this.matcher = this.build(revealed);
	}

	/** The story revealed more (a reveal staged this turn): those secrets' markers may be written now. */
	refresh(revealed: ReadonlySet<string>): void {
		this.matcher = this.build(revealed);
	}

	/**
	 * What the guard did this turn, for the session's counters: replies or tool calls it sent back to be
	 * written again, and whether it stopped the turn (the hit after a rewrite stops it, and asks for none).
	 */
	get outcome(): { rewrites: number; stopped: boolean } {
		const stopped = this.hits > 1;
		return { rewrites: stopped ? this.hits - 1 : this.hits, stopped };
	}

	/** The context note for the player's own anachronisms, or none. */
	get contextNote(): string | undefined {
		return playerNote(this.named);
	}

	/** Checks one reply as it streams (one at a time); what is safe goes to `show`, in order. */
	reply(show: (text: string) => void): ReplyCheck {
		const check = new StreamCheck(this.matcher);
		this.replyStart = this.shown.length;
		const step = (s: ReturnType<StreamCheck['push']>) => {
			if ('hit' in s) return s.hit;
			if (s.release) {
				this.shown += s.release;
				show(s.release);
			}
			return undefined;
		};
		this.replyText = '';
		return {
			push: (delta) => {
				this.replyText += delta;
				return step(check.push(delta));
			},
			end: () => step(check.end())
		};
	}

	/**
	 * The reply hit a term: counts it (throws CanonStoppedError on the turn's second), forgets what the
	 * reply showed and returns what stays on screen (the turn's earlier replies) and the note that asks
	 * the GM to write it again.
	 */
	withdraw(hit: CanonHit): { stays: string; note: string } {
		this.count(hit);
		this.shown = this.shown.slice(0, this.replyStart);
		return { stays: this.shown, note: rewriteNote(hit, this.replyText.slice(hit.start, hit.end)) };
	}

	/** A tool call that would show a term: its refusal (counted as the turn's rewrite, or CanonStoppedError), or none. */
	refuseToolCall(call: { name: string; arguments: string }): string | undefined {
		const words = visibleWords(call);
		if (!words) return undefined;
		for (const text of words.texts) {
			const hit = this.matcher.first(text);
			if (!hit) continue;
			this.count(hit);
			return toolRefusal(call.name, words.where, hit, text.slice(hit.start, hit.end));
		}
		return undefined;
	}

	private count(hit: CanonHit): void {
		this.hits += 1;
		if (this.hits > 1) throw new CanonStoppedError(hit.term.kind);
	}

	private build(revealed: ReadonlySet<string>): TermMatcher {
		return new TermMatcher(canonTerms(this.source, revealed).filter((t) => !this.exempt.has(fold(t.text))));
	}
}
