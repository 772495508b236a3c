/**
 * One reader of a session's event log per process, shared by all of that session's open streams.
 *
 * A stream used to poll the log and re-check its viewer's ownership every second by itself: against a
 * remote database, two HTTP requests per open tab per second. Now the session's feed reads the rows
 * after the newest it has seen — when the bus says this process wrote some, and otherwise once per
 * poll interval (a poll that the bus already caused a read in does not read again) — and keeps the
 * recent rows for its streams. Each stream keeps its own position and takes what is after it from the
 * feed; only a stream further back than the feed's rows (a resume from an old Last-Event-ID, a client
 * that fell behind) reads its own backlog from the log. Ownership is checked by the route when a stream
 * opens, then again by the feed on a slower cadence, once for all streams of the same viewer; a
 * session deleted in this process ends its streams at once (the bus's `ended`). The feed starts with
 * the session's first stream and stops with its last.
 */
import { readLogAfter, type LogPage } from './log';
import type { EventBus } from './bus';
import type { SessionDbPool } from '../db';
import type { LoggedEvent } from '../../types/events';
import { TYPING_TTL_MS, type Presence } from '../../types/presence';

/** How often a session's feed looks for rows written by another process (this process's writes wake it at once). */
export const SSE_POLL_MS = 1_000;
/**
 * How often open streams re-check that their viewer still owns the session. A deletion in this process
 * ends them at once; this catches a deletion by another process (and the log read failing catches a
 * deleted remote database sooner).
 */
export const SSE_ACCESS_CHECK_MS = 5_000;
/** Log rows read per query; a client far behind catches up in batches, with backpressure between them. */
export const SSE_BATCH = 200;
/** Rows a feed keeps for streams that are a little behind; a stream further back reads its own backlog. */
const RECENT_MAX = 2 * SSE_BATCH;

const PARAMS_MARKER = /\bparams:/;

export interface FeedTiming {
	pollMs: number;
	accessCheckMs: number;
}

/** Who is watching: streams with the same `key` are one viewer, whose `check` answers for all of them. */
export interface StreamAccess {
	key: string;
	/** Whether the viewer may still see the session; false ends the viewer's streams. */
	check: () => Promise<boolean>;
}

/** An open stream, as its session's feed sees it. */
export interface FeedMember {
	/** The id of the last row the stream has sent (or skipped). */
	readonly cursor: number;
	readonly access?: StreamAccess;
	/** The feed read further: there may be rows for this stream. */
	wake(): void;
	/** The stream must end: its session is gone or no longer its viewer's, or the log could not be read. */
	end(): void;
	/** Called at each poll while the stream is open, from the feed's timer (not from the stream's request). */
	poll?: () => void;
	/** Who is here and who is typing changed: the stream sends it at once, outside the log (`presence.ts` in types). */
	say?: (presence: Presence) => void;
}

/** What a stream at `cursor` gets: the next rows, `behind` (read your own backlog), or `wait` (nothing new yet). */
export type FeedStep = LogPage | 'behind' | 'wait';

/** A stream's hold on its session's feed. */
export interface FeedHandle {
	next(cursor: number, limit: number): FeedStep;
	/** The feed holds every row after this id; a stream before it reads its own backlog. */
	readonly floor: number;
	/** Who has the session open in this process (the viewers of its streams) and who is typing. */
	presence(): Presence;
	leave(): void;
}

export interface FeedDeps {
	sessions: Pick<SessionDbPool, 'use'>;
	bus: Pick<EventBus, 'subscribe'>;
}

/** Logs why a stream stopped; driver messages end with the query's bound parameters, which stay out of the log. */
export function warnStreamStopped(sessionId: string, err: unknown): void {
	const reason = err instanceof Error ? (err.message.split(PARAMS_MARKER)[0] ?? '').trim() : String(err);
	console.warn(`[kantera] event stream of session ${sessionId} stopped: ${reason}`);
}

class SessionFeed {
	private readonly members = new Set<FeedMember>();
	/** Every row with an id up to this one has been read. */
	private head: number;
	/** `recent` holds every sendable row with `floor` < id ≤ `head`, oldest first. */
	private low: number;
	private recent: LoggedEvent[] = [];
	private readonly timer: ReturnType<typeof setInterval>;
	private readonly unsubscribe: () => void;
	/** The route checked access when the first stream opened. */
	private lastAccessCheck = Date.now();
	private wantRead = false;
	private wantCheck = false;
	private running = false;
	/** The bus caused a read since the last poll: that poll has nothing to add. */
	private readSincePoll = false;
	private stopped = false;
	/** Log reads this feed made (the tests and the bench count them). */
	reads = 0;
	/** Who is typing: each ping holds TYPING_TTL_MS, then its timer lets go. */
	private readonly typing = new Map<string, ReturnType<typeof setTimeout>>();

	constructor(
		private readonly sessionId: string,
		private readonly deps: FeedDeps,
		private readonly timing: FeedTiming,
		end: number,
		private readonly onStop: () => void
	) {
		this.head = end;
		this.low = end;
		this.unsubscribe = deps.bus.subscribe(sessionId, (signal) => {
			if (signal === 'ended') return this.endAll();
			if (signal === 'access') this.wantCheck = true;
			this.requestRead();
		});
		this.timer = setInterval(() => this.tick(), timing.pollMs);
		// Rows written between the first stream's look at the log and the subscription above woke nobody.
		this.requestRead();
	}

	/** Read through a call after an await: `leave` may have stopped the feed meanwhile, which narrowing cannot see. */
	private isStopped(): boolean {
		return this.stopped;
	}

	get floor(): number {
		return this.low;
	}

	get size(): number {
		return this.members.size;
	}

	join(member: FeedMember): void {
		const before = this.presence();
		this.members.add(member);
		this.announce(before);
	}

	leave(member: FeedMember): void {
		const before = this.presence();
		this.members.delete(member);
		if (this.members.size > 0 || this.stopped) return this.announce(before);
		this.stopped = true;
		clearInterval(this.timer);
		for (const timer of this.typing.values()) clearTimeout(timer);
		this.typing.clear();
		this.unsubscribe();
		this.onStop();
	}

	presence(): Presence {
		const here = new Set<string>();
		for (const m of this.members) if (m.access) here.add(m.access.key);
		return { here: [...here].sort(), typing: [...this.typing.keys()].sort() };
	}

	/** `userId` typed: they count as typing for TYPING_TTL_MS more. */
	typed(userId: string): void {
		const before = this.presence();
		clearTimeout(this.typing.get(userId));
		this.typing.set(
			userId,
			setTimeout(() => {
				const held = this.presence();
				this.typing.delete(userId);
				this.announce(held);
			}, TYPING_TTL_MS)
		);
		this.announce(before);
	}

	/** Tells every stream when who is here or typing differs from `before`. */
	private announce(before: Presence): void {
		const now = this.presence();
		if (JSON.stringify(now) === JSON.stringify(before)) return;
		for (const m of [...this.members]) m.say?.(now);
	}

	next(cursor: number, limit: number): FeedStep {
		if (cursor < this.low) return 'behind';
		if (cursor >= this.head) return 'wait';
		const from = this.recent.findIndex((e) => e.id > cursor);
		const events = from === -1 ? [] : this.recent.slice(from, from + limit);
		const more = events.length === limit;
		return { events, last: more ? (events.at(-1)?.id ?? this.head) : this.head, more };
	}

	private tick(): void {
		for (const m of [...this.members]) m.poll?.();
		const checkDue = Date.now() - this.lastAccessCheck >= this.timing.accessCheckMs;
		const readDone = this.readSincePoll;
		this.readSincePoll = false;
		if (readDone && !checkDue) return;
		if (checkDue) this.wantCheck = true;
		this.wantRead = true;
		this.drain();
	}

	private requestRead(): void {
		this.readSincePoll = true;
		this.wantRead = true;
		this.drain();
	}

	/** One read at a time; a wake-up during a read asks for one more after it, however many came. */
	private drain(): void {
		if (this.running || this.stopped) return;
		this.running = true;
		void this.run().then(() => {
			this.running = false;
			if (this.wantRead) this.drain();
		});
	}

	/** Never rejects: a failure ends the streams it concerns. */
	private async run(): Promise<void> {
		while (this.wantRead && !this.stopped) {
			this.wantRead = false;
			if (this.wantCheck) {
				this.wantCheck = false;
				this.lastAccessCheck = Date.now();
				await this.checkAccess();
				if (this.isStopped()) return;
			}
			try {
				let page: LogPage;
				do {
					this.reads++;
					page = await this.deps.sessions.use(this.sessionId, (s) => readLogAfter(s.db, this.head, SSE_BATCH));
					if (this.isStopped()) return;
					this.take(page);
				} while (page.more);
			} catch (err) {
				// The clients reconnect with their Last-Event-ID and miss nothing.
				warnStreamStopped(this.sessionId, err);
				this.endAll();
			}
		}
	}

	private take(page: LogPage): void {
		if (page.last <= this.head) return;
		this.recent.push(...page.events);
		this.head = page.last;
		this.trim();
		for (const m of [...this.members]) m.wake();
	}

	/** Drops the rows every stream has sent, and the oldest beyond RECENT_MAX (a stream that far back reads its own). */
	private trim(): void {
		const slowest = Math.min(this.head, ...[...this.members].map((m) => m.cursor));
		if (slowest > this.low) this.low = slowest;
		let drop = this.recent.findIndex((e) => e.id > this.low);
		if (drop === -1) drop = this.recent.length;
		drop = Math.max(drop, this.recent.length - RECENT_MAX);
		const lastDropped = this.recent[drop - 1];
		if (lastDropped && lastDropped.id > this.low) this.low = lastDropped.id;
		if (drop > 0) this.recent = this.recent.slice(drop);
	}

	/** One check per viewer for all of the viewer's streams; a viewer who lost the session loses them all. */
	private async checkAccess(): Promise<void> {
		const viewers = new Map<string, { access: StreamAccess; members: FeedMember[] }>();
		for (const m of this.members) {
			if (!m.access) continue;
			const v = viewers.get(m.access.key) ?? { access: m.access, members: [] };
			v.members.push(m);
			viewers.set(m.access.key, v);
		}
		for (const { access, members } of viewers.values()) {
			let allowed = false;
			try {
				allowed = await access.check();
			} catch (err) {
				warnStreamStopped(this.sessionId, err);
			}
			if (!allowed) for (const m of members) m.end();
		}
	}

	private endAll(): void {
		for (const m of [...this.members]) m.end();
	}
}

/** The feeds of this process, one per session with open streams. A process resource, not request state. */
export class EventFeeds {
	private readonly feeds = new Map<string, SessionFeed>();
	private readonly timing: FeedTiming;

	constructor(
		readonly deps: FeedDeps,
		timing: Partial<FeedTiming> = {}
	) {
		this.timing = { pollMs: timing.pollMs ?? SSE_POLL_MS, accessCheckMs: timing.accessCheckMs ?? SSE_ACCESS_CHECK_MS };
	}

	/**
	 * Adds a stream to its session's feed, starting the feed for the session's first stream. `end` is the
	 * log's last id as the stream found it when it opened: where a new feed starts reading.
	 */
	join(sessionId: string, member: FeedMember, end: number): FeedHandle {
		let feed = this.feeds.get(sessionId);
		if (!feed) {
			const created = new SessionFeed(sessionId, this.deps, this.timing, end, () => {
				if (this.feeds.get(sessionId) === created) this.feeds.delete(sessionId);
			});
			feed = created;
			this.feeds.set(sessionId, feed);
		}
		feed.join(member);
		const joined = feed;
		return {
			next: (cursor, limit) => joined.next(cursor, limit),
			get floor() {
				return joined.floor;
			},
			presence: () => joined.presence(),
			leave: () => joined.leave(member)
		};
	}

	/** A typing ping of `userId` on the session: told to its streams in this process; false when none is open here. */
	typed(sessionId: string, userId: string): boolean {
		const feed = this.feeds.get(sessionId);
		feed?.typed(userId);
		return feed !== undefined;
	}

	/** Open streams of the session in this process. */
	streams(sessionId: string): number {
		return this.feeds.get(sessionId)?.size ?? 0;
	}

	/** Sessions with a running feed (a feed whose last stream closed is gone). */
	active(): number {
		return this.feeds.size;
	}

	/** Log reads the session's running feed has made so far (0 without one). */
	reads(sessionId: string): number {
		return this.feeds.get(sessionId)?.reads ?? 0;
	}
}
