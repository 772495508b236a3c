/**
 * Switching the model mid-session: the current model first writes a checkpoint hand-off summary,
 * then the new one continues from it. The switch is a turn of kind `handoff`, queued like any turn;
 * the new provider/model wait in the meta table and take effect in the handoff's commit.
 */
import * as v from 'valibot';
import { meta, type SessionDb, type SessionExec, type SessionTx } from '../db';
import type { Config } from '../config';
import { summaries } from '../records';
import { checkpointInstruction } from '../context-window';
import { interruptExpired } from './leases';
import { activeTurn, anyCommitted, insertTurn } from './turns';
import { readSettings, writeSettings } from '../session-setup';
import { TurnError } from './errors';
import { ProviderNameSchema } from '../../types/settings';

/** Where a switch's model waits for its hand-off to commit. */
const NEXT_KEY = 'llm.next' satisfies meta.JsonKey;

const NextSchema = v.object({ provider: ProviderNameSchema, model: v.pipe(v.string(), v.minLength(1)) });
export type ModelChoice = v.InferOutput<typeof NextSchema>;

export type SwitchResult = { switched: 'now' } | { switched: 'after_handoff'; turnId: string } | { switched: 'unchanged' };

export async function switchModel(
	cfg: Pick<Config, 'llm'>,
	s: SessionDb,
	userId: string,
	next: ModelChoice,
	now = Date.now()
): Promise<SwitchResult> {
	const current = await readSettings(s.db, cfg);
	if (current.provider === next.provider && current.model === next.model) return { switched: 'unchanged' };
	const previous = await summaries.latest(s.db);
	const instruction = checkpointInstruction(current.language, Boolean(previous?.body.trim()));
	return s.write(async (tx) => {
		// Nothing to hand over yet, or no model to write it: switch at once.
		if (!(await anyCommitted(tx)) || !current.provider || !current.model) {
			await writeSettings(tx, next);
			return { switched: 'now' as const };
		}
		await interruptExpired(tx, now);
		if (await activeTurn(tx)) throw new TurnError('conflict', 'Wait for the current turn to finish before switching models.');
		await meta.putJsonQuery(tx, NEXT_KEY, next);
		// No `turn.accepted` event: that one announces a player's turn. Clients see this one as a
		// checkpoint (`checkpoint.started` / `checkpoint.done`) once the runner picks it up.
		const { id } = await insertTurn(tx, { kind: 'handoff', userId, input: instruction, now });
		return { switched: 'after_handoff' as const, turnId: id };
	});
}

/** In the handoff's commit: the waiting model takes over. */
export async function applyPendingModel(tx: SessionTx): Promise<void> {
	const rows = await meta.valueQuery(tx, NEXT_KEY);
	if (rows.length === 0) return;
	const waiting = meta.jsonOf(rows, NextSchema);
	if (waiting) await writeSettings(tx, waiting);
	await dropPendingModelQuery(tx);
}

/** Forgets the model a switch waits with, unrun: an undo that takes the hand-off back takes the switch with it. */
export function dropPendingModelQuery(exec: Pick<SessionExec, 'delete'>) {
	return meta.deleteQuery(exec, NEXT_KEY);
}
