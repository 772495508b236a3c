/**
 * The record revision: a counter that every write to a record table moves forward, and the guard a
 * write batch puts first to say "nothing changed since I read the counter".
 *
 * Why: a GM turn's commit is built as one write batch (turn/commit-batch.ts) out of statements that
 * were captured while the turn's staged writes ran speculatively, plus play-log rows under ids
 * computed beforehand. Those statements are right only if the records they read are as they were
 * then. The counter is read once, in the same transaction as what it vouches for; the batch's first
 * statement compares it with the live one and aborts the whole batch (nothing written) when a record
 * changed meanwhile, and the commit falls back to replaying the staged writes interactively. The
 * counter only grows (a rolled-back write takes its increments with it), so "equal" means "no
 * committed record write in between".
 *
 * The captured tables are the undo log's (db/undo-log.ts: every record table, generated from the live
 * schema), so a table another migration adds is counted with no change here. The triggers, the
 * counter table and the guard view are created with the undo triggers when a database opens, not by a
 * migration, for the same reason; the counter table is schema bookkeeping (not copied to a save slot,
 * not captured), and its one row is created by the first counted write.
 */
import type { InStatement } from '@libsql/client';
import type { CapturedTable } from './undo-log';

export const REVISION_TABLE = 'record_revision';
const GUARD_VIEW = 'commit_guard';
/** The message a failed guard aborts with; the error's code is SQLITE_CONSTRAINT (a RAISE(ABORT)). */
export const GUARD_FAILED = 'kantera commit guard: records changed or the turn lease is gone';

function ident(name: string): string {
	return `"${name.replaceAll('"', '""')}"`;
}

const BUMP = `INSERT INTO ${REVISION_TABLE} (id, n) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET n = n + 1;`;

/** The counter and the guard: created (if missing) before the triggers that use them. */
export const REVISION_SCHEMA: readonly string[] = [
	`CREATE TABLE IF NOT EXISTS ${REVISION_TABLE} (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL)`,
	// A view with an INSTEAD OF trigger: inserting into it checks and writes nothing, or aborts the batch.
	`CREATE VIEW IF NOT EXISTS ${GUARD_VIEW} (revision, turn_id, lease_owner) AS SELECT NULL, NULL, NULL`
];

/** The guard trigger by name: the revision must be as read, and the turn still running under this lease. */
export function guardTrigger(): Map<string, string> {
	const name = 'rev_commit_guard';
	return new Map([
		[
			name,
			`CREATE TRIGGER ${ident(name)} INSTEAD OF INSERT ON ${GUARD_VIEW} BEGIN SELECT RAISE(ABORT, '${GUARD_FAILED}') ` +
				`WHERE new.revision IS NOT coalesce((SELECT n FROM ${REVISION_TABLE}), 0) ` +
				`OR NOT EXISTS (SELECT 1 FROM turns WHERE id = new.turn_id AND status = 'running' AND lease_owner = new.lease_owner); END`
		]
	]);
}

/**
 * Updates the image runner makes in the background, which no staged write reads: they leave the counter
 * as it is, so a turn during which an image is generated or finished still commits as one batch. A job's
 * lease, attempts, stored image and its end (running → done or failed) touch no pending order, the only
 * orders a staged write reads (`imageOrders.place`) or claims (orders without a turn, pending); a
 * finished sprite or background sets a column no staged write reads (a character's or place's look is
 * what registration compares). Inserts and deletes always count, and so does every other update.
 */
const BACKGROUND_UPDATES: Readonly<Record<string, { unwatched?: readonly string[]; when?: string }>> = Object.freeze({
	image_orders: { when: "old.status = 'pending' OR new.status = 'pending'" },
	npcs: { unwatched: ['sprite_image', 'updated_at'] },
	scenes: { unwatched: ['background_image', 'updated_at'] }
});

/** The counting triggers of one record table, by name. */
export function revisionTriggersFor(table: CapturedTable): Map<string, string> {
	const t = ident(table.name);
	const base = `rev_${table.name}`;
	const background = BACKGROUND_UPDATES[table.name];
	const watched = table.columns.map((c) => c.name).filter((c) => !background?.unwatched?.includes(c));
	const update = background?.unwatched
		? `UPDATE OF ${watched.map(ident).join(', ')} ON ${t}`
		: `UPDATE ON ${t}${background?.when ? ` WHEN ${background.when}` : ''}`;
	return new Map(
		(['INSERT', 'UPDATE', 'DELETE'] as const).map((op) => {
			const name = `${base}_${op.slice(0, 3).toLowerCase()}`;
			return [name, `CREATE TRIGGER ${ident(name)} AFTER ${op === 'UPDATE' ? update : `${op} ON ${t}`} BEGIN ${BUMP} END`];
		})
	);
}

/** Reads the counter (0 before the first counted write). */
export const REVISION_EXPR = `coalesce((SELECT n FROM ${REVISION_TABLE}), 0)`;

/** The guard statement: first in a batch, it aborts the batch unless the counter is `revision` and the turn is `owner`'s. */
export function guardStatement(revision: number, turnId: string, owner: string): InStatement {
	return { sql: `INSERT INTO ${GUARD_VIEW} (revision, turn_id, lease_owner) VALUES (?, ?, ?)`, args: [revision, turnId, owner] };
}

/** Whether `err` is a batch aborted by a constraint: the guard, or an id computed beforehand already taken. */
export function isConstraintAbort(err: unknown): boolean {
	if (!(err instanceof Error)) return false;
	const code = 'code' in err ? err.code : undefined;
	return typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT');
}
