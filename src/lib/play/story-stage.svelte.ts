/**
 * The stage behind the text window: a `StageTimeline` over the loaded play log (the stage each
 * committed paragraph had), and the provisional stage of a streaming reply, whose staged cues play
 * at their paragraphs until the turn commits (the log's cues replace them) or fails (they are dropped).
 */
import {
	applyCues,
	EMPTY_STAGE,
	playOrder,
	StageTimeline,
	stageAt,
	withSpeaker,
	type MessageCue,
	type StageCue,
	type StageState
} from '../adv';
import type { MessageDto } from '../types/log';
import type { Exchange, Line } from './exchange';

export interface StoryStageOptions {
	initialStage?: StageState | undefined;
	/** Names the GM registered; cues naming others still play but are logged. */
	knownCharacters?: (() => Iterable<string>) | undefined;
	knownScenes?: (() => Iterable<string>) | undefined;
	warn: (message: string) => void;
}

export class StoryStage {
	/** Bumped when the timeline changes: it is a plain object, so the stage reads this to update. */
	private version = $state(0);
	private readonly timeline: StageTimeline;
	private readonly initialStage: StageState;
	/* eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping nothing renders: the stage reads `version` */
	private readonly knownMessages = new Set<number>();
	private lastMessageId = 0;
	/** Stage directions the streaming turn has staged: played live at their paragraphs, dropped if it fails. */
	private provisional = $state.raw<{ turnId: string; cues: readonly StageCue[] } | null>(null);

	constructor(private readonly options: StoryStageOptions) {
		this.initialStage = options.initialStage ?? EMPTY_STAGE;
		this.timeline = new StageTimeline([], [], { initial: this.initialStage });
	}

	/** The largest message id the screen knows: the cursor for reading what a commit added. */
	get lastKnownMessageId(): number {
		return this.lastMessageId;
	}

	/** The stage as `line` of the exchange on screen shows it. */
	at(x: Exchange | null, line: Line | null): StageState {
		void this.version;
		if (x?.messageId != null && this.knownMessages.has(x.messageId)) {
			if (!line || line.kind === 'player') return this.timeline.before(x.messageId);
			return this.timeline.at(x.messageId, line.paragraph);
		}
		const base = this.lastMessageId === 0 ? this.initialStage : this.timeline.after(this.lastMessageId);
		// A streaming reply: its staged cues up to this paragraph. No paragraph count is given, since
		// more paragraphs are coming (a cue numbered past the end so far is simply not due yet).
		const staged =
			this.provisional !== null && this.provisional.turnId === x?.turnId && x.outcome === 'streaming' ? this.provisional.cues : [];
		const played = staged.length > 0 && line !== null && line.kind !== 'player' ? stageAt(base, staged, line.paragraph) : base;
		return withSpeaker(played, line?.kind === 'dialogue' ? line.speaker : null);
	}

	/** A turn starts (or resumes) streaming, with the cues it has staged so far. */
	stream(turnId: string, staged: readonly StageCue[] = []): void {
		this.provisional = staged.length > 0 ? { turnId, cues: staged } : null;
	}

	/** More stage directions for the streaming turn. */
	stageDirections(turnId: string, cues: readonly StageCue[]): void {
		const earlier = this.provisional?.turnId === turnId ? this.provisional.cues : [];
		this.provisional = { turnId, cues: [...earlier, ...cues] };
	}

	/** The turn ended without a reply: its staged cues are dropped. */
	drop(turnId: string): void {
		if (this.provisional?.turnId === turnId) this.provisional = null;
	}

	/** The turn committed: its messages and cues join the timeline, replacing what it had staged. */
	commit(turnId: string, messages: readonly MessageDto[], cues: readonly MessageCue[]): void {
		this.provisional = null;
		this.addLog(messages, cues);
		const gm = messages.findLast((m) => m.role === 'gm' && m.turnId === turnId);
		if (gm)
			this.logCueWarnings(
				gm.id,
				cues.filter((c) => c.messageId === gm.id)
			);
	}

	/** Messages and cues of the play log join the timeline (those already known are skipped). */
	addLog(messages: readonly MessageDto[], cues: readonly MessageCue[]): void {
		const fresh = messages.filter((m) => !this.knownMessages.has(m.id));
		if (fresh.length === 0 && cues.length === 0) return;
		const { rejected } = this.timeline.add(
			fresh.map((m) => ({ id: m.id, role: m.role, body: m.body })),
			cues.filter((c) => !this.knownMessages.has(c.messageId))
		);
		for (const r of rejected) this.options.warn(`stage cue of message ${r.messageId} ignored: it cannot be placed`);
		for (const m of fresh) {
			this.knownMessages.add(m.id);
			this.lastMessageId = Math.max(this.lastMessageId, m.id);
		}
		this.version++;
	}

	private logCueWarnings(messageId: number, cues: readonly MessageCue[]): void {
		if (cues.length === 0) return;
		const { warnings } = applyCues(this.timeline.before(messageId), playOrder(cues.map((c) => c.cue)), {
			knownCharacters: this.options.knownCharacters?.(),
			knownScenes: this.options.knownScenes?.()
		});
		for (const w of warnings) this.options.warn(`stage cue (${w.code}): ${w.message}`);
	}
}
