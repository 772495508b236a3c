/**
 * A player turn's commit as statements: what the engine's commit writes after the staged writes (the
 * play-log messages with their sections, the stage cues and choices of the GM message, the image
 * orders made the turn's, the cost ledger, the turn row, its events), built beforehand so that the
 * whole commit goes as one write batch (Staging.commitBatch): one round trip to a remote database, one
 * durable transaction. The messages' ids, which their section paths, cues, choices and `turn.committed`
 * carry, are computed from the commit base (the id the play log hands out next); the batch's guard and
 * the primary key make sure they are the ids the table would have handed out.
 */
import { sessionSchema, toStatement, type BuiltQuery, type SessionDrizzle } from '../db';
import { log } from '../records';
import * as stage from '../stage';
import type { StageCue } from '../../adv';
import type { SessionEvent } from '../../types/events';
import { appendEventsQuery, pruneStreamingEventsQuery, DELTA_RETENTION_MS, PRUNE_EVERY_COMMITS } from '../events';
import { finishedBeforeQuery, markCommittedQuery, type Committed } from './turns';
import type { BatchTail, CommitBase } from './staging';
import { ledgerValues, type LedgerRow } from './metering';

const { ledger } = sessionSchema;

export interface PlayerCommit {
	turnId: string;
	owner: string;
	input: string;
	reply: string;
	/** The streamed text not yet in the event log, as its event. */
	tail: SessionEvent | undefined;
	cues: readonly StageCue[];
	choices: readonly string[];
	/** Who was on stage: the witnesses of both lines. */
	present: readonly string[];
	ledger: readonly LedgerRow[];
	turn: Committed & { finishedAt: number };
	/** The turn's final event, once the play-log message ids are known. */
	committed: (messageIds: number[]) => SessionEvent;
}

export interface PlayerCommitted {
	messageIds: number[];
	imageOrders: number;
}

/** The statements of a player turn's commit after its staged writes, on `base`. */
export function playerCommitTail(db: SessionDrizzle, base: CommitBase, c: PlayerCommit): BatchTail<PlayerCommitted> {
	const queries: BuiltQuery[] = [];
	if (c.tail) queries.push(appendEventsQuery(db, c.tail));
	// As the interactive commit does, on every PRUNE_EVERY_COMMITS-th turn (by the seq this one will get).
	if ((base.lastSeq + 1) % PRUNE_EVERY_COMMITS === 0) {
		queries.push(pruneStreamingEventsQuery(db, finishedBeforeQuery(db, c.turn.finishedAt - DELTA_RETENTION_MS)));
	}
	const playerId = base.nextLogId;
	const messageIds = [playerId];
	queries.push(
		...log.appendQueries(db, playerId, { role: 'player', body: c.input, turnId: c.turnId, witnesses: c.present }, c.turn.finishedAt)
	);
	if (c.reply) {
		const gmId = playerId + 1;
		messageIds.push(gmId);
		queries.push(...log.appendQueries(db, gmId, { role: 'gm', body: c.reply, turnId: c.turnId, witnesses: c.present }, c.turn.finishedAt));
		queries.push(...stage.cues.saveQueries(db, { turnId: c.turnId, messageId: gmId, cues: c.cues }));
		if (c.choices.length > 0) queries.push(stage.choices.saveQuery(db, { messageId: gmId, options: [...c.choices] }));
	}
	const claimAt = queries.length;
	queries.push(stage.imageOrders.claimForTurnQuery(db, c.turnId));
	if (c.ledger.length > 0) queries.push(db.insert(ledger).values(ledgerValues(c.turnId, 'committed', c.ledger)));
	// The guard has checked the lease already; the condition stays, as in the interactive commit.
	queries.push(markCommittedQuery(db, c.turnId, c.owner, c.turn));
	queries.push(appendEventsQuery(db, c.committed(messageIds)));
	return {
		statements: queries.map(toStatement),
		result: (results) => ({ messageIds, imageOrders: results[claimAt]?.rows.length ?? 0 })
	};
}
