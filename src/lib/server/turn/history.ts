/** What the memory layer needs from the records: history since the last checkpoint and the head. */
import { and, asc, desc, eq, gt, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import { sessionSchema, type SessionExec } from '../db';
import { documents, journal, state, summaries } from '../records';
import { openingContext, stageNow } from '../stage';
import { CARRY_EXCHANGES, type Exchange, type RecordsHead } from '../memory';

const { turns } = sessionSchema;

/**
 * `status = 'committed'` written as `+status = …` so SQLite cannot pick the turns_status index for
 * it: on that index it would read every committed turn ever played (with its text) and sort them,
 * ~5 ms a call at 1,000 turns and growing. Without it the planner walks turns_seq and reads only the
 * turns since the last checkpoint.
 */
const committed = sql`+${turns.status} = 'committed'`;

/** Recent journal entries shown in every context. */
export const HEAD_JOURNAL_ENTRIES = 10;

/** Seq of the last committed checkpoint (0 when none). */
export async function lastCheckpointSeq(exec: SessionExec): Promise<number> {
	const [row] = await exec
		.select({ seq: turns.seq })
		.from(turns)
		.where(and(committed, inArray(turns.kind, ['checkpoint', 'handoff']), isNotNull(turns.seq)))
		.orderBy(desc(turns.seq))
		.limit(1);
	return row?.seq ?? 0;
}

/**
 * Committed player exchanges since the last checkpoint, oldest first, preceded by the last few from
 * before it, marked `carried` (the memory layer keeps those that fit its carry budget in the window,
 * and leaves them out of the checkpoint threshold and request).
 */
export async function historySinceCheckpoint(exec: SessionExec): Promise<Exchange[]> {
	const since = await lastCheckpointSeq(exec);
	const columns = { input: turns.input, reply: turns.reply, tokens: turns.tokens };
	const carried =
		since === 0
			? []
			: await exec
					.select(columns)
					.from(turns)
					.where(and(committed, eq(turns.kind, 'player'), lt(turns.seq, since)))
					.orderBy(desc(turns.seq))
					.limit(CARRY_EXCHANGES);
	const rows = await exec
		.select(columns)
		.from(turns)
		.where(and(committed, eq(turns.kind, 'player'), gt(turns.seq, since)))
		.orderBy(asc(turns.seq));
	return [...carried.reverse().map((r) => ({ ...exchange(r), carried: true })), ...rows.map(exchange)];
}

function exchange(r: { input: string; reply: string | null; tokens: number | null }): Exchange {
	return { player: r.input, gm: r.reply ?? '', tokens: r.tokens ?? undefined };
}

export async function nextSeq(exec: SessionExec): Promise<number> {
	const [row] = await exec.select({ seq: turns.seq }).from(turns).where(isNotNull(turns.seq)).orderBy(desc(turns.seq)).limit(1);
	return (row?.seq ?? 0) + 1;
}

export async function loadHead(exec: SessionExec): Promise<RecordsHead> {
	const [latest, toc, st, recent] = [
		await summaries.latest(exec),
		await documents.toc(exec, { includeGmOnly: true }),
		await state.get(exec),
		await journal.recent(exec, HEAD_JOURNAL_ENTRIES)
	];
	// Before the first exchange the GM continues from the opening the player has just read.
	const [played] = await exec
		.select({ id: turns.id })
		.from(turns)
		.where(and(committed, eq(turns.kind, 'player')))
		.limit(1);
	return {
		summary: latest?.body,
		toc: toc.flatMap((d) => [`document #${d.id}: ${d.title}${d.gmOnly ? ' (GM-only)' : ''}`, ...d.headings.map((h) => `  ${h}`)]),
		state: st.doc,
		journal: recent.map((j) => j.body),
		opening: played ? undefined : await openingContext(exec),
		stage: await stageNow(exec)
	};
}
