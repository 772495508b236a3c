/**
 * Staged writes for one turn. Every write of the turn is kept as an operation and applied for real
 * only at commit, together with the play-log messages, stage cues, image orders and cost ledger, in
 * one transaction. A failed or cancelled turn simply drops its operations: nothing was written.
 *
 * Reads inside the turn must see the staged writes, so each read (and each new write, to get its
 * result and fail early) runs in a speculative transaction that replays the staged operations and
 * is then rolled back. A turn stages a handful of operations, so replaying them costs a few
 * milliseconds, and the session database is never locked while the LLM is thinking: the event log,
 * leases and the player's own edits keep flowing.
 */
import { undoLog, type SessionDb, type SessionExec, type SessionTx } from '../db';

export type StagedOp = (tx: SessionTx) => Promise<unknown>;

/** Thrown inside a speculative transaction to roll it back; never escapes this module. */
class Speculation extends Error {
	constructor() {
		super('speculative transaction rolled back');
	}
}

export class Staging {
	private readonly ops: StagedOp[] = [];

	constructor(private readonly session: SessionDb) {}

	get size(): number {
		return this.ops.length;
	}

	/** Runs `fn` against the session as it will be once the staged writes commit. */
	async read<T>(fn: (exec: SessionExec) => Promise<T>): Promise<T> {
		if (this.ops.length === 0) return fn(this.session.db);
		return this.speculate(fn);
	}

	/**
	 * Stages a write. It runs at once on top of the staged writes, so a write that is invalid
	 * (duplicate note name, truth overwrite…) fails now and is not staged; its result is returned.
	 */
	async write<T>(fn: (tx: SessionTx) => Promise<T>): Promise<T> {
		const result = await this.speculate(fn);
		this.ops.push(fn);
		return result;
	}

	/**
	 * Applies every staged write and then `finalize`, in one transaction. With `undoAs`, every row the
	 * transaction writes is noted in the undo log under that turn id (db/undo-log.ts), in the same
	 * transaction: the turn can be taken back exactly.
	 */
	async commit<T>(finalize: (tx: SessionTx) => Promise<T>, options: { undoAs?: string } = {}): Promise<T> {
		return this.session.write(async (tx) => {
			if (options.undoAs !== undefined) await undoLog.beginCapture(tx, options.undoAs);
			for (const op of this.ops) await op(tx);
			const result = await finalize(tx);
			if (options.undoAs !== undefined) await undoLog.endCapture(tx);
			return result;
		});
	}

	private async speculate<T>(fn: (tx: SessionTx) => Promise<T>): Promise<T> {
		let result: { value: T } | undefined;
		try {
			await this.session.write(async (tx) => {
				for (const op of this.ops) await op(tx);
				result = { value: await fn(tx) };
				throw new Speculation();
			});
		} catch (err) {
			if (!(err instanceof Speculation)) throw err;
		}
		if (!result) throw new Error('speculative transaction produced no result');
		return result.value;
	}
}
