/** What the memory layer needs from the records: history since the last checkpoint and the head. */
import { and, asc, desc, eq, gt, isNotNull, lt, sql } from 'drizzle-orm';
import { sessionSchema, type SessionDrizzle, type SessionExec } from '../db';
import { documents, journal, state, summaries } from '../records';
import { openingContext, stageNowOf, stageNowQueries } from '../stage';
import { CARRY_EXCHANGES, type Exchange, type RecordsHead } from '../memory';
import type { Config } from '../config';
import { MISSION_KEY } from './mission';
import { settingsOf, settingsQuery, type SessionSettings } from './settings';

const { turns, meta } = sessionSchema;

/**
 * `status = 'committed'` written as `+status = …` so SQLite cannot pick the turns_status index for
 * it: on that index it would read every committed turn ever played (with its text) and sort them,
 * ~5 ms a call at 1,000 turns and growing. Without it the planner walks turns_seq and reads only the
 * turns since the last checkpoint.
 */
const committed = sql`+${turns.status} = 'committed'`;

/** Recent journal entries shown in every context. */
export const HEAD_JOURNAL_ENTRIES = 10;

/** Seq of the last committed checkpoint (0 when none), as a subquery. */
const checkpointSeq = sql`(SELECT coalesce(max(${turns.seq}), 0) FROM ${turns}
	WHERE +${turns.status} = 'committed' AND ${turns.kind} IN ('checkpoint', 'handoff'))`;

const exchangeColumns = { input: turns.input, reply: turns.reply, tokens: turns.tokens };

/**
 * The two queries of `historySinceCheckpoint`, unrun, for a batch: the last few exchanges before the
 * last checkpoint (newest first) and those since it (oldest first). The checkpoint's seq is a subquery,
 * so neither waits for the other.
 */
function historyQueries(db: SessionDrizzle) {
	return [
		db
			.select(exchangeColumns)
			.from(turns)
			.where(and(committed, eq(turns.kind, 'player'), lt(turns.seq, checkpointSeq)))
			.orderBy(desc(turns.seq))
			.limit(CARRY_EXCHANGES),
		db
			.select(exchangeColumns)
			.from(turns)
			.where(and(committed, eq(turns.kind, 'player'), gt(turns.seq, checkpointSeq)))
			.orderBy(asc(turns.seq))
	] as const;
}

type ExchangeRow = { input: string; reply: string | null; tokens: number | null };

function historyOf(carried: ExchangeRow[], since: ExchangeRow[]): Exchange[] {
	return [...carried.reverse().map((r) => ({ ...exchange(r), carried: true })), ...since.map(exchange)];
}

/**
 * Committed player exchanges since the last checkpoint, oldest first, preceded by the last few from
 * before it, marked `carried` (the memory layer keeps those that fit its carry budget in the window,
 * and leaves them out of the checkpoint threshold and request). One batch: one round trip.
 */
export async function historySinceCheckpoint(db: SessionDrizzle): Promise<Exchange[]> {
	const [carried, since] = await db.batch(historyQueries(db));
	return historyOf(carried, since);
}

function exchange(r: { input: string; reply: string | null; tokens: number | null }): Exchange {
	return { player: r.input, gm: r.reply ?? '', tokens: r.tokens ?? undefined };
}

export async function nextSeq(exec: SessionExec): Promise<number> {
	const [row] = await exec.select({ seq: turns.seq }).from(turns).where(isNotNull(turns.seq)).orderBy(desc(turns.seq)).limit(1);
	return (row?.seq ?? 0) + 1;
}

/** What a turn starts from: the session's settings, the pinned mission, the records head and the history since the last checkpoint. */
export interface TurnStart {
	settings: SessionSettings;
	mission: string | undefined;
	head: RecordsHead;
	history: Exchange[];
}

/**
 * Reads what a turn starts from, the session's settings and the stage included, in one batch (one round
 * trip to a remote database, and one consistent snapshot); before the first exchange, then the opening.
 */
export async function loadTurnStart(db: SessionDrizzle, cfg: Pick<Config, 'llm'>): Promise<TurnStart> {
	const everyDocument = { includeGmOnly: true };
	const [settings, mission, [latest], docs, tocRows, st, recent, played, opening, cues, carried, since] = await db.batch([
		settingsQuery(db),
		db.select({ value: meta.value }).from(meta).where(eq(meta.key, MISSION_KEY)),
		summaries.latestQuery(db),
		documents.listQuery(db, everyDocument),
		documents.tocSectionsQuery(db, everyDocument),
		state.getQuery(db),
		journal.recentQuery(db, HEAD_JOURNAL_ENTRIES),
		// Before the first exchange the GM continues from the opening the player has just read.
		db
			.select({ id: turns.id })
			.from(turns)
			.where(and(committed, eq(turns.kind, 'player')))
			.limit(1),
		...stageNowQueries(db),
		...historyQueries(db)
	]);
	const toc = documents.tocOf(docs, tocRows);
	return {
		settings: settingsOf(settings, cfg),
		mission: mission[0]?.value,
		head: {
			summary: latest?.body,
			toc: toc.flatMap((d) => [`document #${d.id}: ${d.title}${d.gmOnly ? ' (GM-only)' : ''}`, ...d.headings.map((h) => `  ${h}`)]),
			state: state.snapshotOf(st).doc,
			journal: recent.reverse().map((j) => j.body),
			opening: played.length > 0 ? undefined : await openingContext(db),
			stage: stageNowOf(opening, cues)
		},
		history: historyOf(carried, since)
	};
}

export async function loadHead(db: SessionDrizzle, cfg: Pick<Config, 'llm'>): Promise<RecordsHead> {
	return (await loadTurnStart(db, cfg)).head;
}
