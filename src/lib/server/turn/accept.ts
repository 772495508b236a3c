/**
 * Accepting a turn: validate, take the daily quota, record "turn accepted" under its idempotency key
 * and return at once. The same key again returns the same turn and starts nothing new.
 */
import * as v from 'valibot';
import { eq } from 'drizzle-orm';
import { sessionSchema, type ControlDb, type SessionDb, type SessionTx } from '../db';
import { takeTurnQuota, returnTurnQuota } from '../budget';
import type { Config } from '../config';
import { appendEvent, appendEventIfQuery } from '../events';
import { interruptExpired, interruptExpiredQueries } from './leases';
import {
	acceptedQuery,
	activeTurn,
	byKeyQuery,
	insertAcceptedIfFreeQuery,
	insertTurn,
	newTurnRow,
	turnExistsSql,
	type NewTurn,
	type TurnRow,
	type Whisper
} from './turns';
import { QuotaExceededError, TurnError } from './errors';
import { markWorkIfTaken } from './work';
import { turnQuota } from '../tiers';
import type { Tier } from '../../types/account';

const { undoneTurns } = sessionSchema;

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
	 * Who pays the turn's LLM calls, and whose tier picks the model: the session's owner when another member
	 * sends (the quota above is still the sender's). The sender by default.
	 */
	payer?: { userId: string; tier: Tier };
	/** A whisper to the GM: the line and its answer are the whisperer's and the GM's only. */
	whisper?: Whisper;
	/**
	 * Play together, free turn order: a line sent while another turn waits or runs is queued behind it (and
	 * answered with the lines before it by the next turn) instead of refused as busy.
	 */
	queue?: boolean;
	/**
	 * Play together: the sender's character, whose name the line is tagged with (`Name: line`) so the GM and
	 * the log know who spoke; the tag does not count toward the input length limit. `shared`: told to every
	 * screen with the line, as its `sender`.
	 */
	speaker?: string;
	shared?: boolean;
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

type SeenTurn = { id: string; status: AcceptedTurn['status'] };

/** The two reads of what a key already made: a live turn, or one an undo took back (see `seenOf`). */
function keyQueries(exec: Pick<SessionDb['db'], 'select'>, key: string) {
	return [byKeyQuery(exec, key), exec.select({ id: undoneTurns.id }).from(undoneTurns).where(eq(undoneTurns.idempotencyKey, key))] as const;
}

function seenOf(live: readonly SeenTurn[], undone: readonly { id: string }[]): SeenTurn | undefined {
	const [row] = live;
	if (row) return row;
	const [taken] = undone;
	return taken ? { id: taken.id, status: 'undone' } : undefined;
}

/** The turn this key already made, if any: a live one, or one an undo took back. */
async function byKey(exec: SessionTx, key: string): Promise<SeenTurn | undefined> {
	const [live, undone] = keyQueries(exec, key);
	return seenOf(await live, await undone);
}

/** The player's new turn: waits, accepted, under the player's key. */
function playerTurn(idempotencyKey: string, input: AcceptInput, text: string, now: number): NewTurn {
	const payer = input.payer ?? { userId: input.userId, tier: input.tier };
	const senderId = payer.userId === input.userId ? undefined : input.userId;
	return { kind: 'player', idempotencyKey, userId: payer.userId, senderId, tier: payer.tier, input: text, whisper: input.whisper, now };
}

/**
 * The turn's `turn.accepted` event: a whisper's says who whispered, so each event stream knows whom to hide it from;
 * at a shared table it names the sender (whose queued line it is).
 */
function acceptedEvent(turnId: string, input: AcceptInput, text: string) {
	return {
		type: 'turn.accepted' as const,
		turnId,
		input: text,
		...(input.shared ? { sender: input.userId } : {}),
		...(input.whisper ? { whisper: input.whisper } : {})
	};
}

const BUSY_MESSAGE = 'The GM is still working on the previous turn. Wait for it to finish, or cancel it.';

/**
 * Records the accepted turn in one write batch (one round trip): expired leases end first, then the
 * turn goes in only if its key is new and no player or hand-off turn is waiting or running; then the
 * reads that say which it was.
 */
async function insertAccepted(s: SessionDb, key: string, input: AcceptInput, text: string, now: number): Promise<AcceptedTurn> {
	const w = s.writes;
	const row = newTurnRow(playerTurn(key, input, text, now));
	const id = row.id;
	const [, , , , live, undone, inserted] = await w.batch([
		...interruptExpiredQueries(s, now),
		insertAcceptedIfFreeQuery(w, row, input.queue),
		// Its event goes in only if the turn did.
		appendEventIfQuery(w, acceptedEvent(id, input, text), now, turnExistsSql(id)),
		...keyQueries(w, key),
		acceptedQuery(w, id)
	]);
	if (inserted.length > 0) return { turnId: id, status: 'accepted', created: true };
	const seen = seenOf(live, undone);
	if (seen) return { turnId: seen.id, status: seen.status, created: false };
	throw new TurnError('conflict', BUSY_MESSAGE);
}

/** The turn an idempotency key already made (live, or taken back by an undo), for a resend refused on other grounds. */
export async function acceptedBefore(s: SessionDb, key: string): Promise<AcceptedTurn | undefined> {
	const seen = seenOf(...(await s.db.batch(keyQueries(s.db, key))));
	return seen && { turnId: seen.id, status: seen.status, created: false };
}

export async function acceptTurn(deps: AcceptDeps, s: SessionDb, input: AcceptInput, now = Date.now()): Promise<AcceptedTurn> {
	const said = input.text.trim();
	const text = input.speaker && said ? `${input.speaker}: ${said}` : said;
	if (!said) throw new TurnError('invalid_input', 'Say something: the text is empty.', { path: 'text', problem: 'empty' });
	const max = deps.config.engine.maxInputChars;
	if (said.length > max) {
		throw new TurnError('invalid_input', `The text is ${said.length} characters; the limit is ${max}.`, {
			path: 'text',
			problem: 'tooLong',
			limit: max
		});
	}
	const key = v.safeParse(IdempotencyKeySchema, input.idempotencyKey);
	if (!key.success) throw new TurnError('invalid_input', key.issues[0].message, { path: 'idempotencyKey', problem: 'format' });

	// The key is not looked up before the quota is taken: the accept batch checks it anyway, and a
	// resend (rare) gives the quota back below. Only the refusals look first, so that a resend of a
	// turn already made still gets that turn rather than the refusal.
	const seenBefore = () => acceptedBefore(s, key.output);
	if (!deps.config.llm.configured) {
		const seen = await seenBefore();
		if (seen) return seen;
		throw new TurnError('not_configured', deps.config.llm.reason);
	}

	// The session is noted as having work in the same batch (one durable commit), before its turn exists.
	const allowance = turnQuota(deps.config, input.tier ?? 'free');
	const quota = await takeTurnQuota(deps.control.db, input.userId, allowance, now, markWorkIfTaken(deps.control.db, s.id, now));
	if (!quota.ok) {
		const seen = await seenBefore();
		if (seen) return seen;
		throw new QuotaExceededError(allowance, quota.resetsAt);
	}
	let result: AcceptedTurn;
	try {
		const prepare = input.prepare;
		// Without a step of the caller's own inside, the checks and the insert are one write batch.
		result =
			prepare === undefined
				? await insertAccepted(s, key.output, input, text, now)
				: await s.write(async (tx) => {
						const again = await byKey(tx, key.output);
						if (again) return { turnId: again.id, status: again.status, created: false };
						await interruptExpired(tx, now);
						const active = await activeTurn(tx);
						if (active) throw new TurnError('conflict', BUSY_MESSAGE);
						await prepare(tx);
						const { id } = await insertTurn(tx, playerTurn(key.output, input, text, now));
						await appendEvent(tx, acceptedEvent(id, input, text));
						return { turnId: id, status: 'accepted' as const, created: true };
					});
	} catch (err) {
		await returnTurnQuota(deps.control.db, input.userId, now);
		throw err;
	}
	// The key was already used (a resend, or a concurrent one that won the race): that turn took the quota.
	if (!result.created) await returnTurnQuota(deps.control.db, input.userId, now);
	return result;
}
