/**
 * Backlog replay: the stage as it was at any paragraph of any message of the play log.
 *
 * The stage at (message m, paragraph p) is the initial stage with every cue of every earlier message
 * played, then m's cues up to p (`stageAt` rules: cues tied to p play before p, cues numbered past
 * m's last paragraph play before its last one). Log order is message id order: the play log assigns
 * ids as it appends.
 *
 * All cues sit in one array in play order (message id, paragraph, ord). A snapshot of the stage is
 * kept after every `checkpointEvery` cues, so a lookup is a binary search plus fewer than
 * `checkpointEvery` cue applications, however long the log or however many cues one message has.
 * Adding messages or cues at the end (live play) extends the fold; adding older ones (an earlier
 * backlog page) refolds from the first cue that moved.
 */
import * as v from 'valibot';
import { StageCueSchema, type StageCue } from './cue';
import { parseScript, type Paragraph } from './script';
import { applyCue, EMPTY_STAGE, placeParagraph, withSpeaker, type StageState } from './stage';

/** Who wrote a play-log message: the player, the GM, the harness's operator instructions, the system. */
export const LOG_ROLES = ['player', 'gm', 'operator', 'system'] as const;
export type LogRole = (typeof LOG_ROLES)[number];

export interface LogMessage {
	readonly id: number;
	readonly role: LogRole;
	readonly body: string;
}

/** A stored cue row: the message it belongs to, its paragraph and its order among the message's cues. */
export const MessageCueSchema = v.pipe(
	v.object({
		messageId: v.pipe(v.number(), v.integer()),
		/** The cue's own paragraph, by the cue's rule. */
		paragraph: StageCueSchema.entries.paragraph,
		ord: v.pipe(v.number(), v.integer()),
		cue: StageCueSchema
	}),
	v.readonly()
);
export type MessageCue = v.InferOutput<typeof MessageCueSchema>;

/** Fewer than this many cue applications per lookup; one stage snapshot per this many cues in memory. */
export const DEFAULT_CHECKPOINT_CUES = 32;

export interface TimelineOptions {
	readonly initial?: StageState | undefined;
	readonly checkpointEvery?: number | undefined;
}

export interface TimelineStats {
	/** Cue applications while folding (building snapshots). */
	foldApplications: number;
	/** Cue applications while answering lookups. */
	lookupApplications: number;
	lookups: number;
}

interface Placed {
	readonly messageId: number;
	readonly paragraph: number;
	readonly ord: number;
	/** Arrival order: keeps duplicates (same message, paragraph, ord) stable. */
	readonly seq: number;
	readonly cue: StageCue;
}

function comparePlaced(a: Placed, b: Placed): number {
	return a.messageId - b.messageId || a.paragraph - b.paragraph || a.ord - b.ord || a.seq - b.seq;
}

/** Rows come typed, but a caller may hand over rows it built from anything: the schema decides. */
function usableRow(row: MessageCue): boolean {
	return v.is(MessageCueSchema, row);
}

export class StageTimeline {
	readonly stats: TimelineStats = { foldApplications: 0, lookupApplications: 0, lookups: 0 };
	private readonly every: number;
	private readonly messages = new Map<number, LogMessage>();
	private readonly scripts = new Map<number, Paragraph[]>();
	private cues: Placed[] = [];
	/** snapshots[k] is the stage after cues[0 .. k * every). */
	private snapshots: StageState[];
	private seq = 0;

	constructor(messages: readonly LogMessage[] = [], cues: readonly MessageCue[] = [], options: TimelineOptions = {}) {
		const every = options.checkpointEvery ?? DEFAULT_CHECKPOINT_CUES;
		this.every = Number.isInteger(every) && every >= 1 ? every : DEFAULT_CHECKPOINT_CUES;
		this.snapshots = [options.initial ?? EMPTY_STAGE];
		this.add(messages, cues);
	}

	/**
	 * Adds messages and cue rows, in any order. A message id seen before is kept as first given (the
	 * log is append-only). Returns the rows that cannot be placed (a paragraph that is not a
	 * non-negative integer, an unknown action) so the caller can log them; they never play.
	 */
	add(messages: readonly LogMessage[], cues: readonly MessageCue[] = []): { rejected: MessageCue[] } {
		for (const m of messages) {
			if (!this.messages.has(m.id)) this.messages.set(m.id, m);
		}
		const rejected: MessageCue[] = [];
		const placed: Placed[] = [];
		for (const row of cues) {
			if (!usableRow(row)) rejected.push(row);
			else placed.push({ messageId: row.messageId, paragraph: row.paragraph, ord: row.ord, seq: this.seq++, cue: row.cue });
		}
		if (placed.length > 0) this.insert(placed);
		return { rejected };
	}

	/** How many messages the timeline knows. */
	get size(): number {
		return this.messages.size;
	}

	/** The paragraphs of a message as the stage reads them (parsed once). Empty for an unknown id. */
	paragraphs(messageId: number): readonly Paragraph[] {
		const cached = this.scripts.get(messageId);
		if (cached) return cached;
		const message = this.messages.get(messageId);
		if (!message) return [];
		const parsed = parseScript(message.body, { final: true });
		this.scripts.set(messageId, parsed);
		return parsed;
	}

	/**
	 * The stage while paragraph `paragraph` of message `messageId` is shown, with the speaker set for
	 * a GM message's dialogue. Works for any id: an unknown one gets the stage of the ids before it.
	 */
	at(messageId: number, paragraph: number): StageState {
		const state = this.fold(this.countThrough(messageId, paragraph));
		const message = this.messages.get(messageId);
		if (message?.role !== 'gm') return withSpeaker(state, null);
		const p = this.paragraphs(messageId).find((x) => x.index === paragraph);
		return withSpeaker(state, p?.kind === 'dialogue' ? p.speaker : null);
	}

	/** The stage once all of a message's cues have played; no speaker. */
	after(messageId: number): StageState {
		return withSpeaker(this.fold(this.countThrough(messageId, Number.POSITIVE_INFINITY)), null);
	}

	/** The stage as the message begins, before any of its cues; no speaker. */
	before(messageId: number): StageState {
		return withSpeaker(this.fold(this.countThrough(messageId, -1)), null);
	}

	/** The paragraph before which a placed cue plays, given its message's length. */
	private effective(cue: Placed): number {
		const count = this.messages.has(cue.messageId) ? this.paragraphs(cue.messageId).length : undefined;
		return placeParagraph(cue.paragraph, count);
	}

	/** How many cues (a prefix of play order) have played at (messageId, paragraph): a binary search. */
	private countThrough(messageId: number, paragraph: number): number {
		let lo = 0;
		let hi = this.cues.length;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			const cue = this.cues[mid];
			const played = cue !== undefined && (cue.messageId < messageId || (cue.messageId === messageId && this.effective(cue) <= paragraph));
			if (played) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	}

	/** The stage after the first `n` cues: the nearest snapshot at or before n, then the rest. */
	private fold(n: number): StageState {
		this.stats.lookups++;
		const k = Math.min(Math.floor(n / this.every), this.snapshots.length - 1);
		let state = this.snapshots[k] ?? EMPTY_STAGE;
		for (let i = k * this.every; i < n; i++) {
			const cue = this.cues[i];
			if (!cue) break;
			state = applyCue(state, cue.cue).state;
			this.stats.lookupApplications++;
		}
		return state;
	}

	private insert(placed: Placed[]): void {
		placed.sort(comparePlaced);
		const first = placed[0];
		const last = this.cues[this.cues.length - 1];
		if (!first) return;
		let from: number;
		if (!last || comparePlaced(last, first) <= 0) {
			from = this.cues.length;
			this.cues.push(...placed);
		} else {
			from = this.lowerBound(first);
			this.cues = [...this.cues, ...placed].sort(comparePlaced);
		}
		this.refold(Math.floor(from / this.every));
	}

	private lowerBound(target: Placed): number {
		let lo = 0;
		let hi = this.cues.length;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			const cue = this.cues[mid];
			if (cue !== undefined && comparePlaced(cue, target) < 0) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	}

	/** Recomputes every snapshot after snapshots[keep]. */
	private refold(keep: number): void {
		this.snapshots.length = Math.min(keep + 1, this.snapshots.length);
		let state = this.snapshots[this.snapshots.length - 1] ?? EMPTY_STAGE;
		for (let i = (this.snapshots.length - 1) * this.every; i < this.cues.length; i++) {
			const cue = this.cues[i];
			if (!cue) break;
			state = applyCue(state, cue.cue).state;
			this.stats.foldApplications++;
			if ((i + 1) % this.every === 0) this.snapshots.push(state);
		}
	}
}
