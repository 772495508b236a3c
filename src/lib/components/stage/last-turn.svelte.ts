/**
 * Undo, Reroll and Edit on the last exchange (the quick menu's first items, and U, R, E). Each
 * takes the last turn back with every record it wrote (state, journal, notes, story, stage…);
 * Reroll sends the same line again, Edit a changed one, written in the text window's entry. The
 * screen then shows the session afresh. One key per action, kept across a retry, so a double
 * click or a resend does it once.
 */
import { newIdempotencyKey, type PlayState } from '$lib/play';
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
