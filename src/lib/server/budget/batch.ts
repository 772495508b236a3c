/**
 * Parts of one control-database batch. What a turn has to write and read there at one moment (the
 * tier, the budget scopes and the first call's reservation at its start; a call's settle, the
 * warnings it fired and the next call's reservation between two calls) goes as one batch: one round
 * trip to a remote database and one transaction. Each part brings its statements and reads its own
 * results back.
 */
import type { BatchItem } from 'drizzle-orm/batch';
import type { ControlDrizzle } from '../db';

export interface BatchPart<T> {
	items: readonly BatchItem<'sqlite'>[];
	/** Makes sense of this part's results (one per item, in order). */
	read: (results: readonly unknown[]) => T;
}

/**
 * Runs the parts' statements, in order, as one batch and hands each part its own results. Nothing is
 * sent when no part has a statement. A batch is a deferred transaction: a part that writes goes before
 * any that only reads, or the write could find the snapshot a read started already stale (SQLITE_BUSY).
 */
export async function runParts(db: ControlDrizzle, parts: readonly BatchPart<unknown>[]): Promise<(readonly unknown[])[]> {
	const [first, ...rest] = parts.flatMap((p) => p.items);
	const results: readonly unknown[] = first ? await db.batch([first, ...rest]) : [];
	let at = 0;
	return parts.map((p) => {
		const own = results.slice(at, at + p.items.length);
		at += p.items.length;
		return own;
	});
}

/** Runs one part as its own batch. */
export async function runPart<T>(db: ControlDrizzle, part: BatchPart<T>): Promise<T> {
	const [results] = await runParts(db, [part]);
	return part.read(results ?? []);
}
