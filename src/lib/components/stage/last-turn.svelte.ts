/**
 * Undo, Reroll and Edit on the last exchange (the quick menu's first items, and U, R, E). Each
 * takes the last turn back with every record it wrote (state, journal, notes, story, stage…);
 * Reroll sends the same line again, Edit a changed one, written in the text window's entry. The
 * screen then shows the session afresh. One key per action, kept across a retry, so a double
 * click or a resend does it once.
 *
 * Swipes (‹ ›, ← →, a swipe on a phone) move between the replies to the last line, each with its
 * own records; past the newest, the GM is asked for another (the one on screen is kept).
 */
import { newIdempotencyKey, type PlayState } from '$lib/play';
import type { AlternativesDto } from '$lib/types/api';
// The modules, not the panels' index: that would bring every panel into the page's first load.
import { describeApiError } from '$lib/components/panels/api-errors';
import type { PanelClient } from '$lib/components/panels/api';

export class LastTurn {
	/** An action is under way. */
	busy = $state(false);
	/** The last action's error, worded, until the next one. */
	error = $state<string | null>(null);
	/** The changed line is being written (the window's entry holds it instead of the input). */
	editing = $state(false);
	text = $state('');
	private key = newIdempotencyKey();
	/** The replies to the last line (swipes), once read: for the turn `alternativesFor`. */
	alternatives = $state.raw<AlternativesDto['items']>([]);
	private alternativesFor = $state<string | null>(null);
	private askedFor: string | null = null;

	constructor(
		private readonly play: PlayState,
		private readonly client: PanelClient
	) {}

	/** The last committed player turn can be taken back now (no turn runs, the screen is not reloading). */
	get available(): boolean {
		return this.play.undoable !== null && this.play.turn === null && !this.play.reloading && !this.busy;
	}

	undo(): void {
		const target = this.play.undoable;
		if (target && this.available) void this.run(() => this.client.undo(target.turnId, this.key));
	}

	reroll(): void {
		const target = this.play.undoable;
		if (target && this.available) void this.run(() => this.client.reroll(target.turnId, this.key));
	}

	/** The window's entry takes the last line, to be changed and sent instead. */
	startEdit(): void {
		const target = this.play.undoable;
		if (!target || !this.available) return;
		this.text = target.input;
		this.error = null;
		this.editing = true;
	}

	cancelEdit(): void {
		this.editing = false;
		this.error = null;
	}

	submitEdit(): void {
		const target = this.play.undoable;
		const text = this.text;
		if (target && text.trim() && this.available) void this.run(() => this.client.reroll(target.turnId, this.key, text));
	}

	/** Reads the replies to the last line, once per last turn (the screen reloads after every change). */
	readAlternatives(): void {
		const target = this.play.undoable;
		if (!target || this.askedFor === target.turnId) return;
		this.askedFor = target.turnId;
		this.client.alternatives(target.turnId).then(
			(list) => {
				if (this.play.undoable?.turnId !== target.turnId) return;
				this.alternatives = list.items;
				this.alternativesFor = target.turnId;
			},
			(err: unknown) => (this.error = describeApiError(err, this.play.t))
		);
	}

	/** Where the reply on screen stands among the replies to the last line (1-based), and how many there are. */
	get position(): { at: number; of: number } {
		const at = this.alternatives.findIndex((a) => a.current);
		return at < 0 ? { at: 1, of: 1 } : { at: at + 1, of: this.alternatives.length };
	}

	/** The replies to the last line are known: ‹ and › can be used. */
	get swipeable(): boolean {
		return this.available && this.alternativesFor !== null && this.alternativesFor === this.play.undoable?.turnId;
	}

	/** The previous reply (-1) or the next (+1); past the newest, another reply is asked for. */
	swipe(direction: -1 | 1): void {
		const target = this.play.undoable;
		// Before the replies are read, › could not tell "the next one" from "another one".
		if (!target || !this.swipeable) return;
		const at = this.alternatives.findIndex((a) => a.current);
		const to = this.alternatives[at + direction];
		if (at >= 0 && to) void this.run(() => this.client.chooseAlternative(target.turnId, to.id));
		else if (direction === 1) void this.run(() => this.client.newAlternative(target.turnId, this.key));
	}

	private async run(action: () => Promise<unknown>): Promise<void> {
		this.busy = true;
		this.error = null;
		try {
			await action();
			this.key = newIdempotencyKey();
			this.editing = false;
			this.play.reload();
		} catch (err) {
			this.error = describeApiError(err, this.play.t);
		} finally {
			this.busy = false;
		}
	}
}
