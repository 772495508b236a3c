/**
 * The call log: one row of metadata per LLM call (who, provider, model, tokens, cost, latency, retries,
 * outcome), written in the same batch that settles the call's money, so it costs no durable commit of its
 * own. Never the prompt or the reply: the operator's usage page needs counts, not conversations.
 */
import { lt } from 'drizzle-orm';
import { controlSchema, type ControlDrizzle } from '../db';
import { utcDay } from './usage';
import type { Payer } from './reservations';
import type { ProviderName } from '../../types/settings';

const { llmCalls } = controlSchema;

export interface CallRecord {
	provider: ProviderName;
	model: string;
	inputTokens: number;
	cachedInputTokens: number;
	cacheWriteTokens: number;
	outputTokens: number;
	costMicros: number;
	latencyMs: number;
	retries: number;
	/** Undefined for a call that finished; else why it did not (an LlmError kind, `aborted`, …). */
	failure: string | undefined;
}

/** The insert for one call, to go into a batch. */
export function callLogInsert(db: ControlDrizzle, payer: Payer, call: CallRecord, at: number) {
	return db
		.insert(llmCalls)
		.values({ ...call, failure: call.failure ?? null, userId: payer.userId, sessionId: payer.sessionId, at, day: utcDay(at) });
}

const DAY_MS = 86_400_000;
/** How often the retention job looks: a few times a day keeps the table within a day of its limit. */
export const CALL_LOG_PRUNE_EVERY_MS = 6 * 60 * 60 * 1000;

/** Deletes the call log's rows older than `days` days (KANTERA_CALL_LOG_DAYS); returns how many went. */
export async function pruneCallLog(db: ControlDrizzle, days: number, now = Date.now()): Promise<number> {
	const gone = await db.delete(llmCalls).where(lt(llmCalls.at, now - days * DAY_MS));
	return gone.rowsAffected;
}
