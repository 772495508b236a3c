/**
 * Time travel through the API: undo, reroll and edit of the last turn; save slots and loading one as
 * a new session. Bodies are checked here; the rules (last turn only, 409 while a turn runs, keys) are
 * the timetravel module's.
 */
import * as v from 'valibot';
import { IdempotencyKeySchema } from '../turn';
import { withoutControlCharacters } from '../validation';
import type { AuthUser } from '../auth';
import type { App as Kantera } from '../app';
import { chooseAlternative, listAlternatives, loadSave, newAlternative, rerollTurn, undoTurn, type UndoOutcome } from '../timetravel';
import type { LoadedSaveDto } from '../../types/saves';
import type { UndoneDto, RerolledDto, AlternativesDto } from '../../types/api';
import { withSession } from './sessions';

export const UndoBody = v.strictObject({ idempotencyKey: IdempotencyKeySchema });

export const RerollBody = v.strictObject({
	idempotencyKey: IdempotencyKeySchema,
	/** An edit: the new line to send instead of the turn's own. Length and blankness are the turn engine's rules. */
	text: v.optional(v.pipe(v.string('text must be a string'), withoutControlCharacters('The text')))
});

function undoneDto(o: UndoOutcome): UndoneDto {
	return { turnId: o.turnId, input: o.input, undone: o.undone };
}

/** The turn route's `[id]` and `[turnId]` (and an alternative's `[altId]`). */
interface TurnParams {
	id?: string;
	turnId?: string;
	altId?: string;
}

/** An answer and whether this request made it (false: the same idempotency key again). */
interface Created<Body> {
	body: Body;
	created: boolean;
}

export async function postUndo(app: Kantera, user: AuthUser, params: TurnParams, body: v.InferOutput<typeof UndoBody>) {
	const result = await withSession(app, user, params.id, (s) => undoTurn(app, s, params.turnId ?? '', body.idempotencyKey));
	return { body: undoneDto(result.outcome), created: result.created } satisfies Created<UndoneDto>;
}

export async function postReroll(app: Kantera, user: AuthUser, params: TurnParams, body: v.InferOutput<typeof RerollBody>) {
	const result = await withSession(app, user, params.id, (s) =>
		rerollTurn(app, s, user.id, params.turnId ?? '', { key: body.idempotencyKey, ...(body.text === undefined ? {} : { text: body.text }) })
	);
	return {
		body: { turnId: result.turn.turnId, status: result.turn.status, ...(result.undone ? { undone: undoneDto(result.undone) } : {}) },
		created: result.turn.created
	} satisfies Created<RerolledDto>;
}

/** Another reply to the turn's line (a swipe): 202 with the new turn, as a reroll; the reply on screen is kept aside. */
export async function postAlternative(app: Kantera, user: AuthUser, params: TurnParams, body: v.InferOutput<typeof UndoBody>) {
	const turn = await withSession(app, user, params.id, (s) => newAlternative(app, s, user.id, params.turnId ?? '', body.idempotencyKey));
	return { body: { turnId: turn.turnId, status: turn.status }, created: turn.created } satisfies Created<RerolledDto>;
}

export async function getAlternatives(app: Kantera, user: AuthUser, params: TurnParams): Promise<AlternativesDto> {
	return { items: await withSession(app, user, params.id, (s) => listAlternatives(s, params.turnId ?? '')) };
}

export async function postChooseAlternative(app: Kantera, user: AuthUser, params: TurnParams): Promise<AlternativesDto> {
	return { items: await withSession(app, user, params.id, (s) => chooseAlternative(app, s, params.turnId ?? '', params.altId ?? '')) };
}

export async function postLoad(
	app: Kantera,
	user: AuthUser,
	sessionId: string | undefined,
	saveId: string | undefined
): Promise<LoadedSaveDto> {
	const branch = await withSession(app, user, sessionId, (s, session) => loadSave(app, s, session, saveId));
	return { sessionId: branch.id, title: branch.title, at: branch.at };
}
