/** What the context window needs from the records: history since the last checkpoint and the head. */
import { sql } from 'drizzle-orm';
import * as v from 'valibot';
import type { InStatement, ResultSet } from '@libsql/client';
import type { BatchResponse } from 'drizzle-orm/batch';
import { toStatement, type SessionDrizzle, type SessionExec } from '../db';
import { alwaysSectionsQuery, alwaysText, documents, journal, state, story, summaries } from '../records';
import { canonOf, canonQuery } from '../canon';
import type { CanonSource } from '../../canon';
import { openingContext, stageNowOf, stageNowQueries, stageStateOf } from '../stage';
import type { StageState } from '../../adv';
import { CARRY_EXCHANGES, type Exchange, type RecordsHead } from '../context-window';
import type { Config } from '../config';
import { missionOf, missionQuery, settingsOf, settingsQuery, tableOf, tableQuery, type SessionSettings } from '../session-setup';
import { anyPlayedQuery, exchangeQueries, lastSeq } from './turns';
import { BASE_QUERY, toBase, type CommitBase } from './staging';
import { gmLine } from './whisper';

/** Recent journal entries shown in every context. */
export const HEAD_JOURNAL_ENTRIES = 10;

/**
 * The two queries of `historySinceCheckpoint`, unrun, for a batch: the last few exchanges before the
 * last checkpoint (newest first) and those since it (oldest first).
 */
function historyQueries(db: SessionDrizzle) {
	return exchangeQueries(db, CARRY_EXCHANGES);
}

type ExchangeRow = { input: string; reply: string | null; tokens: number | null; whisperAs?: string | null };

function historyOf(carried: ExchangeRow[], since: ExchangeRow[]): Exchange[] {
	return [...carried.reverse().map((r) => ({ ...exchange(r), carried: true })), ...since.map(exchange)];
}

/**
 * Committed player exchanges since the last checkpoint, oldest first, preceded by the last few from
 * before it, marked `carried` (the context window keeps those that fit its carry budget in the window,
 * and leaves them out of the checkpoint threshold and request). One batch: one round trip.
 */
export async function historySinceCheckpoint(db: SessionDrizzle): Promise<Exchange[]> {
	const [carried, since] = await db.batch(historyQueries(db));
	return historyOf(carried, since);
}

/** Plain statements' rows carry the column names (`whisper_as`), not drizzle's field names. */
const ExchangeRows = v.array(
	v.pipe(
		v.object({ input: v.string(), reply: v.nullable(v.string()), tokens: v.nullable(v.number()), whisper_as: v.nullable(v.string()) }),
		v.transform(({ whisper_as, ...r }): ExchangeRow => ({ ...r, whisperAs: whisper_as }))
	)
);

/**
 * `historySinceCheckpoint` as plain statements, for a batch that mixes other modules' (the turn runner
 * reads it with the embedding queue, or in a turn's commit), and what their two results say.
 */
export function historyReads(db: SessionDrizzle): { statements: InStatement[]; of: (results: readonly ResultSet[]) => Exchange[] } {
	return {
		statements: historyQueries(db).map(toStatement),
		of: ([carried, since]) => historyOf(v.parse(ExchangeRows, carried?.rows ?? []), v.parse(ExchangeRows, since?.rows ?? []))
	};
}

function exchange(r: ExchangeRow): Exchange {
	return { player: gmLine(r.input, r.whisperAs), gm: r.reply ?? '', tokens: r.tokens ?? undefined };
}

export async function nextSeq(exec: SessionExec): Promise<number> {
	return (await lastSeq(exec)) + 1;
}

/** What a turn starts from: the pinned mission, the records head and the history since the last checkpoint. */
export interface TurnStart {
	settings: SessionSettings;
	mission: string | undefined;
	head: RecordsHead;
	history: Exchange[];
	/** What a one-batch commit of the turn is built on (turn/staging.ts), read in the same snapshot. */
	base: CommitBase;
	/** The session's canon and the story-DB keys revealed so far: what the guard checks the GM's words against. */
	canon: { source: CanonSource; revealed: Set<string> };
	/** The stage as the player last saw it: who stands there witnesses the turn (issue 27). */
	stage: StageState;
}

/**
 * What a turn starts from, unrun: the session's settings, the mission, the records head, the stage, the
 * history and the commit base, for one batch (the runner's claim carries them: `claimNext`).
 */
export function turnStartQueries(db: SessionDrizzle) {
	const everyDocument = { includeGmOnly: true };
	return [
		settingsQuery(db),
		missionQuery(db),
		summaries.latestQuery(db),
		documents.listQuery(db, everyDocument),
		documents.tocSectionsQuery(db, everyDocument),
		state.getQuery(db),
		journal.recentQuery(db, HEAD_JOURNAL_ENTRIES),
		// Before the first exchange the GM continues from the opening the player has just read.
		anyPlayedQuery(db),
		...stageNowQueries(db),
		...historyQueries(db),
		canonQuery(db),
		story.revealedKeysQuery(db),
		db.all<Record<string, unknown>>(sql.raw(BASE_QUERY)),
		// The world's always-on lore (a lorebook's constant entries), in every context.
		alwaysSectionsQuery(db),
		tableQuery(db)
	] as const;
}

/** The results of `turnStartQueries`, as a batch returns them. */
export type TurnStartReads = BatchResponse<ReturnType<typeof turnStartQueries>>;

/** What a turn starts from, out of `turnStartQueries`' results (before the first exchange, the opening is read too). */
export async function turnStartOf(db: SessionDrizzle, cfg: Pick<Config, 'llm'>, reads: TurnStartReads): Promise<TurnStart> {
	const [
		settings,
		mission,
		[latest],
		docs,
		tocRows,
		st,
		recent,
		played,
		opening,
		cues,
		carried,
		since,
		canon,
		revealed,
		[base],
		always,
		table
	] = reads;
	const toc = documents.tocOf(docs, tocRows);
	return {
		settings: settingsOf(settings, cfg),
		mission: missionOf(mission),
		head: {
			summary: latest?.body,
			toc: toc.flatMap((d) => [`document #${d.id}: ${d.title}${d.gmOnly ? ' (GM-only)' : ''}`, ...d.headings.map((h) => `  ${h}`)]),
			state: state.snapshotOf(st).doc,
			journal: [...recent].reverse().map((j) => j.body),
			opening: played.length > 0 ? undefined : await openingContext(db),
			stage: stageNowOf(opening, cues),
			always: alwaysText(always),
			table: tableOf(table)
		},
		history: historyOf([...carried], since),
		base: toBase(base),
		canon: { source: canonOf(canon), revealed: new Set(revealed.map((r) => r.key)) },
		stage: stageStateOf(opening, cues)
	};
}

/**
 * Reads what a turn starts from, the session's settings and the stage included, in one batch (one round
 * trip to a remote database, and one consistent snapshot); before the first exchange, then the opening.
 */
export async function loadTurnStart(db: SessionDrizzle, cfg: Pick<Config, 'llm'>): Promise<TurnStart> {
	return turnStartOf(db, cfg, await db.batch(turnStartQueries(db)));
}

export async function loadHead(db: SessionDrizzle, cfg: Pick<Config, 'llm'>): Promise<RecordsHead> {
	return (await loadTurnStart(db, cfg)).head;
}
