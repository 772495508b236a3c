/**
 * The play screen's state, one instance per page, shared with the components by context: the story
 * on screen, the stage's images, the reader's settings, and the turn in flight. Session events
 * (over SSE) come in through `handle`, one at a time in log order.
 */
import type { SessionEvent, TurnFailure } from '../types/events';

type BudgetWarningEvent = Extract<SessionEvent, { type: 'budget.warning' }>;
import { LOG_MAX_PAGE, type LogPageDto, type MessageDto } from '../types/log';
import { TYPING_PING_MS, type Presence } from '../types/presence';
import type { StageState } from '../adv';
import type { MessageKey } from '../i18n';
import { StageImages } from './images.svelte';
import { ReaderSettings, type SettingsStorage, type TextSpeed } from './settings.svelte';
import { Story, type FrameScheduler } from './story.svelte';
import { fetchLogPage } from './log';
import { newIdempotencyKey } from './keys';
import { carryReading } from './read-marks';
import type { ChoiceMenu, FinishedStatus, PlaySound, PlayView, TurnsLeft } from './types';
import { LineQueue } from './queue.svelte';
import type { MemberRole } from '../types/members';

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

export interface TurnInFlight {
	id: string;
	input: string;
	phase: 'accepted' | 'running';
	cancelRequested: boolean;
}

/** How the last turn ended, when that needs saying (and maybe a retry). */
export interface TurnOutcome {
	id: string;
	input: string;
	status: FinishedStatus;
	/** Why a failed turn failed (worded by the screen) and the id the operator finds it under. */
	failure: TurnFailure | null;
	/** Why a committed turn ended early: `round_cap`, `budget:<scope>`. */
	stopped: string | null;
}

export type Connection = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** A past line picked in the backlog, shown on the stage as it was until the reader returns. */
export interface PastView {
	stage: StageState;
	kind: 'player' | 'narration' | 'dialogue' | 'system';
	speaker: string | null;
	text: string;
}

export interface PlayOptions {
	sessionId: string;
	view: PlayView;
	llmConfigured: boolean;
	t: Translate;
	/** The player's turns left today when the page was rendered; null on a tier without a daily quota. */
	turnsLeft?: TurnsLeft | null;
	/** The keys the page's forms were rendered with (a fresh pair if not given). */
	idempotencyKey?: string;
	retryKey?: string;
	/** Reads the log page after a message (what a commit added); the API's backlog in the browser. */
	fetchLog?: (afterId: number) => Promise<LogPageDto>;
	warn?: (message: string) => void;
	/** Shows the session afresh (after an undo the records are not what the screen holds); the page reload in the browser. */
	reload?: () => void;
	/** Goes to another page (a loaded save's session); `location.assign` in the browser. */
	goTo?: (url: string) => void;
	/** Tells the table the player is typing (`POST …/typing`); the API in the browser. */
	pingTyping?: () => Promise<void>;
	/** Play together: the reader's place (undo, reroll, swipes, saves and stopping the GM are the owner's); the owner by default. */
	seat?: { role: MemberRole; userId: string };
}

/** Tells the table the reader is typing (`POST …/typing`). */
const postTyping = async (sessionId: string) => {
	await fetch(`/api/v1/sessions/${encodeURIComponent(sessionId)}/typing`, { method: 'POST' });
};

export class PlayState {
	readonly sessionId: string;
	readonly llmConfigured: boolean;
	readonly t: Translate;
	readonly story: Story;
	readonly images: StageImages;
	readonly settings: ReaderSettings;
	/** The author's sound files of this session (its preset's), for the stage's sound. */
	readonly sounds: readonly PlaySound[];

	turn = $state<TurnInFlight | null>(null);
	/** Play together: lines waiting behind the turn in flight; whether the reader owns the session (the owner's tools are theirs); who they are. */
	readonly waiting: LineQueue;
	readonly seat: { owner: boolean; me: string | null };
	outcome = $state<TurnOutcome | null>(null);
	/** The tool the GM is using right now (player-visible ones only), 'checkpoint', or 'reconsidering' (a reply withdrawn, issue 27). */
	activity = $state<string | null>(null);
	/** Spending warnings of this visit, as the server sent them (the screen words them), until dismissed. */
	budgetWarnings = $state<BudgetWarningEvent[]>([]);
	connection = $state<Connection>('connecting');
	/** The key the next submission posts with; replaced after each one. */
	idempotencyKey = $state(newIdempotencyKey());
	retryKey = $state(newIdempotencyKey());
	/** The text in the input box, kept here so a retry or an error can fill it back. */
	draft = $state('');
	/** A backlog line on the stage instead of the story, or null. */
	past = $state<PastView | null>(null);
	/** Messages committed while the page is open, oldest first (for the backlog). */
	liveMessages = $state.raw<MessageDto[]>([]);
	/** Bumped on every commit: panels showing records reload. */
	commits = $state(0);
	/** Play together: counts `table.changed` events; the seat list reads the table again when it moves. */
	tableVersion = $state(0);
	/** Play together: others sit at the table (the seat list says so once it has read it); the whisper toggle shows then. */
	together = $state(false);
	/** Who has the session open and who is typing (user ids), as the stream last said; ephemeral, never in the log. */
	presence = $state.raw<Presence>({ here: [], typing: [] });
	/** Turns left today; each player turn accepted while the page is open took one. */
	turnsLeft = $state<TurnsLeft | null>(null);
	/** What the GM offered to say next with its newest reply; shown once that reply has been read. */
	choices = $state.raw<ChoiceMenu | null>(null);
	/** The last committed player turn: what Undo, Reroll and Edit act on (null while a turn runs). */
	undoable = $state.raw<{ turnId: string; input: string } | null>(null);
	/** The screen is being reloaded after an undo: the records it shows are out of date. */
	reloading = $state(false);

	private readonly fetchLog: (afterId: number) => Promise<LogPageDto>;
	private readonly warn: (message: string) => void;
	private readonly reloadPage: () => void;
	private readonly goTo: (url: string) => void;
	private readonly pingTyping: () => Promise<void>;
	private lastTypingPing = 0;
	/** This device's storage, once attached (the reader's settings, read lines, the line being read). */
	private storage: SettingsStorage | null = null;
	private queue: Promise<void> = Promise.resolve();
	private lastEventId: number;

	constructor(options: PlayOptions) {
		const { view } = options;
		this.sessionId = options.sessionId;
		this.llmConfigured = options.llmConfigured;
		this.t = options.t;
		this.lastEventId = view.lastEventId;
		this.warn = options.warn ?? ((m) => console.warn(`[kantera] ${m}`));
		this.fetchLog = options.fetchLog ?? ((after) => this.defaultFetchLog(after));
		this.turnsLeft = options.turnsLeft ?? null;
		this.seat = { owner: (options.seat?.role ?? 'owner') === 'owner', me: options.seat?.userId ?? null };
		this.waiting = new LineQueue(view.queued);
		if (options.idempotencyKey !== undefined) this.idempotencyKey = options.idempotencyKey;
		if (options.retryKey !== undefined) this.retryKey = options.retryKey;
		this.reloadPage = options.reload ?? (() => location.reload());
		this.goTo = options.goTo ?? ((url) => location.assign(url));
		this.pingTyping = options.pingTyping ?? (() => postTyping(this.sessionId));
		if (this.seat.owner && !view.activeTurn && view.lastTurn?.status === 'committed')
			this.undoable = { turnId: view.lastTurn.id, input: view.lastTurn.input };
		this.settings = new ReaderSettings();
		this.images = new StageImages(view.log.images);
		this.sounds = view.sounds ?? [];
		this.choices = view.choices;
		this.story = new Story({
			sessionId: options.sessionId,
			messages: view.log.messages,
			cues: view.log.cues,
			initialStage: view.log.stageBefore,
			knownCharacters: () => this.images.names('npc'),
			knownScenes: () => this.images.names('scene'),
			warn: this.warn
		});
		if (view.activeTurn) {
			const a = view.activeTurn;
			this.turn = { id: a.id, input: a.input, phase: a.status, cancelRequested: a.cancelRequested };
			this.story.resume(a.id, a.input, a.text, a.staged.cues);
			this.images.stagePlaces(a.staged.places);
		} else if (view.lastTurn && (view.lastTurn.status !== 'committed' || view.lastTurn.stopped)) {
			const l = view.lastTurn;
			this.outcome = { id: l.id, input: l.input, status: l.status, failure: l.failure, stopped: l.stopped };
			if (l.status !== 'committed') this.story.end(l.id, l.status, l.input);
		}
	}

	/** Connects the browser: stored reader settings and read paragraphs, and the frame clock. */
	attach(storage: SettingsStorage | null, frames: FrameScheduler | null, reducedMotion: boolean): void {
		this.storage = storage;
		this.settings.attach(storage, reducedMotion);
		this.applySettings();
		this.story.attach(storage, frames);
	}

	setSpeed(speed: TextSpeed): void {
		this.settings.setSpeed(speed);
		this.applySettings();
	}

	setAuto(auto: boolean): void {
		this.settings.setAuto(auto);
		this.applySettings();
	}

	toggleAuto(): void {
		this.setAuto(!this.settings.auto);
	}

	setAutoDelay(ms: number): void {
		this.settings.setAutoDelay(ms);
		this.applySettings();
	}

	/** Shows a backlog line on the stage, with the background and characters it had. */
	showPast(past: PastView): void {
		this.past = past;
	}

	returnToStory(): void {
		this.past = null;
	}

	private applySettings(): void {
		this.story.configure(this.settings.charsPerSecond, this.settings.auto, this.settings.autoDelayMs);
	}

	/** A turn can be sent: an LLM is configured and no turn is in flight. */
	get canSend(): boolean {
		return this.llmConfigured && this.turn === null;
	}

	/** The line on screen, as the screen keys it (`turn:paragraph`): a save records it, and a load opens there. */
	get readingAt(): string | null {
		return this.story.current?.key ?? null;
	}

	/**
	 * Goes to the new session a save was loaded into, opening on the line the save was made on (with
	 * what was read here, on this device).
	 */
	openLoaded(branch: { sessionId: string; at: string | null }): void {
		if (this.storage) carryReading(this.storage, this.sessionId, branch.sessionId, branch.at);
		this.goTo(`/sessions/${branch.sessionId}`);
	}

	/** Shows the session afresh, once. */
	reload(): void {
		if (this.reloading) return;
		this.reloading = true;
		this.undoable = null;
		this.reloadPage();
	}

	/** The form was accepted by the server: the next submission needs a new key. */
	submitted(): void {
		this.idempotencyKey = newIdempotencyKey();
		this.retryKey = newIdempotencyKey();
		this.draft = '';
	}

	dismissWarning(index: number): void {
		this.budgetWarnings = this.budgetWarnings.filter((_, i) => i !== index);
	}

	/** Feeds one logged event; events are applied strictly in order, even when one needs a fetch. */
	receive(id: number, event: SessionEvent): Promise<void> {
		if (id <= this.lastEventId) return this.queue;
		this.lastEventId = id;
		this.queue = this.queue
			.then(() => this.handle(event))
			.catch((err: unknown) => this.warn(`event ${event.type} could not be shown: ${String(err)}`));
		return this.queue;
	}

	/** The player typed in the input box: the others see it on the seat list, told at most every TYPING_PING_MS. */
	typed(now = Date.now()): void {
		if (!this.together || now - this.lastTypingPing < TYPING_PING_MS) return;
		this.lastTypingPing = now;
		this.pingTyping().catch(() => undefined); // a courtesy: a lost ping only makes the dots a little late
	}

	/** The stream's URL, resuming after what the page was rendered with. */
	eventsUrl(): string {
		return `/api/v1/sessions/${this.sessionId}/events?lastEventId=${this.lastEventId}`;
	}

	private async handle(event: SessionEvent): Promise<void> {
		switch (event.type) {
			case 'turn.accepted':
				// Only the reader's own lines take from their quota; one sent while another turn is in flight waits, queued.
				if (this.turnsLeft && (event.sender ?? this.seat.me) === this.seat.me)
					this.turnsLeft = { ...this.turnsLeft, left: Math.max(0, this.turnsLeft.left - 1) };
				if (this.turn && this.turn.id !== event.turnId)
					this.waiting.add({ id: event.turnId, input: event.input, sender: event.sender ?? '' });
				else this.beginTurn(event.turnId, event.input);
				return;
			case 'turn.started': {
				const queued = this.waiting.take(event.turnId);
				if (queued) this.beginTurn(queued.id, queued.input);
				if (this.turn?.id === event.turnId) this.turn.phase = 'running';
				return;
			}
			case 'turn.merged':
				this.waiting.take(event.turnId);
				this.story.retell(event.into, event.input);
				return;
			case 'text.delta':
				this.activity = null;
				this.story.appendDelta(event.turnId, event.text);
				return;
			case 'text.withdrawn':
				// The GM reconsiders: what the withdrawn reply showed goes; its rewrite streams after.
				if (this.turn?.id === event.turnId) this.activity = 'reconsidering';
				this.story.withdraw(event.turnId, event.text);
				return;
			case 'tool.activity':
				if (this.turn?.id === event.turnId) this.activity = event.tool;
				return;
			case 'stage.staged':
				this.images.stagePlaces(event.places);
				this.story.stageDirections(event.turnId, event.cues);
				return;
			case 'checkpoint.started':
				this.activity = 'checkpoint';
				return;
			case 'checkpoint.done':
				if (this.activity === 'checkpoint') this.activity = null;
				return;
			case 'turn.committed': {
				const input = this.turn?.id === event.turnId ? this.turn.input : '';
				const log = await this.fetchLog(this.story.lastKnownMessageId).catch((err: unknown) => {
					this.warn(`could not read the committed messages: ${String(err)}`);
					return null;
				});
				if (log) this.images.replace(log.images);
				this.story.commit(event.turnId, event.reply, log?.messages ?? [], log?.cues ?? []);
				if (log && log.messages.length > 0) this.liveMessages = [...this.liveMessages, ...log.messages];
				const offeredBy = event.messageIds.at(-1);
				this.choices =
					event.choices && event.choices.length > 0 && offeredBy !== undefined ? { messageId: offeredBy, options: event.choices } : null;
				this.commits++;
				if (input && this.seat.owner) this.undoable = { turnId: event.turnId, input };
				this.finish(
					event.turnId,
					event.stopped ? { id: event.turnId, input, status: 'committed', failure: null, stopped: event.stopped } : null
				);
				return;
			}
			case 'turn.failed':
				this.endTurn(event.turnId, 'failed', { reason: event.reason, errorId: event.errorId });
				return;
			case 'turn.cancelled':
				if (!this.waiting.take(event.turnId)) this.endTurn(event.turnId, 'cancelled', null);
				return;
			case 'turn.interrupted':
				this.endTurn(event.turnId, 'interrupted', null);
				return;
			case 'turn.undone':
			case 'turn.swiped':
				// Every record may differ from what the screen holds (here or in another tab): show it afresh.
				this.reload();
				return;
			case 'budget.warning':
				this.budgetWarnings = [...this.budgetWarnings, event];
				return;
			case 'image.ready':
				this.images.ready(event.target, event.name, event.url);
				return;
			case 'image.failed':
				this.images.failed(event.target, event.name);
				this.warn(`image for ${event.target} "${event.name}" failed: ${event.error}`);
				return;
			case 'table.changed':
				this.tableVersion++;
				return;
		}
	}

	private beginTurn(turnId: string, input: string): void {
		this.undoable = null;
		this.turn = { id: turnId, input, phase: 'accepted', cancelRequested: false };
		this.outcome = null;
		this.activity = null;
		this.choices = null;
		this.story.beginTurn(turnId, input);
	}

	private endTurn(turnId: string, status: 'failed' | 'cancelled' | 'interrupted', failure: TurnFailure | null): void {
		const input = this.turn?.id === turnId ? this.turn.input : this.story.exchange?.turnId === turnId ? this.story.exchange.input : null;
		// Events of a checkpoint turn (not the player's) end nothing on screen.
		if (input === null) return;
		this.story.end(turnId, status, input);
		this.finish(turnId, { id: turnId, input, status, failure, stopped: null });
		this.draft = input;
	}

	private finish(turnId: string, outcome: TurnOutcome | null): void {
		if (this.turn?.id === turnId) this.turn = null;
		this.activity = null;
		this.outcome = outcome;
	}

	private defaultFetchLog(afterId: number): Promise<LogPageDto> {
		return fetchLogPage(fetch, this.sessionId, { after: afterId, limit: LOG_MAX_PAGE });
	}
}
