/**
 * Accepting a turn: validate, take the daily quota, record "turn accepted" under its idempotency key
 * and return at once. The same key again returns the same turn and starts nothing new.
 */
import * as v from 'valibot';
import { eq } from 'drizzle-orm';
import { newId, sessionSchema, type ControlDb, type SessionDb, type SessionTx } from '../db';
import { takeTurnQuota, returnTurnQuota } from '../budget';
import type { Config } from '../config';
import { appendEvent } from './events';
import { activeTurn, interruptExpired, type TurnRow } from './leases';
import { QuotaExceededError, TurnError } from './errors';
import { markWorkIfTaken } from './work';
import { turnQuota } from '../tiers';
import type { Tier } from '../../types/account';

const { turns, undoneTurns } = sessionSchema;

export const IdempotencyKeySchema = v.pipe(
	v.string('idempotencyKey must be a string'),
	v.regex(/^[A-Za-z0-9_.:-]{8,128}$/, 'idempotencyKey must be 8–128 characters of letters, digits, _ . : -')
);

export interface AcceptInput {
	userId: string;
	/** The player's tier decides the daily quota (free: KANTERA_FREE_TURNS_PER_DAY; plus: none). */
	tier?: Tier;
	text: string;
	idempotencyKey: string;
	/**
	 * Runs in the transaction that inserts the turn, after the checks, before the insert (a reroll
	 * takes the previous turn back here): if it throws, nothing is written and the quota goes back.
	 */
	prepare?: (tx: SessionTx) => Promise<void>;
}

export interface AcceptedTurn {
	turnId: string;
	/** `undone`: the key belongs to a turn an undo took back; nothing is played again. */
	status: TurnRow['status'] | 'undone';
	/** False when the key was seen before and the existing turn is returned. */
	created: boolean;
}

export interface AcceptDeps {
	config: Pick<Config, 'engine' | 'llm'>;
	control: ControlDb;
}

/** The turn this key already made, if any: a live one, or one an undo took back. */
async function byKey(exec: SessionDb['db'] | SessionTx, key: string): Promise<{ id: string; status: AcceptedTurn['status'] } | undefined> {
	const [row] = await exec.select({ id: turns.id, status: turns.status }).from(turns).where(eq(turns.idempotencyKey, key));
	if (row) return row;
	const [undone] = await exec.select({ id: undoneTurns.id }).from(undoneTurns).where(eq(undoneTurns.idempotencyKey, key));
	return undone ? { id: undone.id, status: 'undone' } : undefined;
}

export async function acceptTurn(deps: AcceptDeps, s: SessionDb, input: AcceptInput, now = Date.now()): Promise<AcceptedTurn> {
	const text = input.text.trim();
	if (!text) throw new TurnError('invalid_input', 'Say something: the text is empty.');
	if (text.length > deps.config.engine.maxInputChars) {
		throw new TurnError('invalid_input', `The text is ${text.length} characters; the limit is ${deps.config.engine.maxInputChars}.`);
	}
	const key = v.safeParse(IdempotencyKeySchema, input.idempotencyKey);
	if (!key.success) throw new TurnError('invalid_input', key.issues[0].message);

	const seen = await byKey(s.db, key.output);
	if (seen) return { turnId: seen.id, status: seen.status, created: false };
	if (!deps.config.llm.configured) throw new TurnError('not_configured', deps.config.llm.reason);

	// The session is noted as having work in the same batch (one durable commit), before its turn exists.
	const allowance = turnQuota(deps.config, input.tier ?? 'free');
	const quota = await takeTurnQuota(deps.control.db, input.userId, allowance, now, markWorkIfTaken(deps.control.db, s.id, now));
	if (!quota.ok) throw new QuotaExceededError(allowance, quota.resetsAt);
	let result: AcceptedTurn;
	try {
		result = await s.write(async (tx) => {
			const again = await byKey(tx, key.output);
			if (again) return { turnId: again.id, status: again.status, created: false };
			await interruptExpired(tx, now);
			const active = await activeTurn(tx);
			if (active) throw new TurnError('conflict', 'The GM is still working on the previous turn. Wait for it to finish, or cancel it.');
			if (input.prepare) await input.prepare(tx);
			const id = newId();
			await tx
				.insert(turns)
				.values({ id, idempotencyKey: key.output, kind: 'player', userId: input.userId, input: text, status: 'accepted', createdAt: now });
			await appendEvent(tx, { type: 'turn.accepted', turnId: id, input: text });
			return { turnId: id, status: 'accepted' as const, created: true };
		});
	} catch (err) {
		await returnTurnQuota(deps.control.db, input.userId, now);
		throw err;
	}
	// A concurrent resend won the race for this key: it already took the quota.
	if (!result.created) await returnTurnQuota(deps.control.db, input.userId, now);
	return result;
}
