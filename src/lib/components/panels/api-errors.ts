/**
 * What the API refused, in the reader's language. The API answers errors with a stable `code` (and
 * the details a sentence needs: the fields and their problems, a time, a limit) beside an English
 * `message` meant for API clients; the play page never shows that message but words the code here.
 * A code this build does not know still reads in the reader's language, naming the code.
 */
import * as v from 'valibot';
import { ApiErrorBodySchema, FIELD_PROBLEMS, type ApiErrorBody, type FieldProblemCode } from '../../types/api';
import { BUDGET_SCOPES, type BudgetScope } from '../../types/events';
import type { MessageKey } from '../../i18n';

type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/** A failed API call: the HTTP status (0 when the network failed) and the error body, when there was one. */
export class ApiRequestError extends Error {
	constructor(
		readonly status: number,
		readonly body: ApiErrorBody
	) {
		super(body.message);
		this.name = 'ApiRequestError';
	}
}

/** The error a failed answer stands for; its body is read with the API's schema (a proxy's page is not one). */
export async function apiRequestError(res: Response): Promise<ApiRequestError> {
	const data: unknown = await res.json().catch(() => undefined);
	const body = v.safeParse(ApiErrorBodySchema, data);
	return new ApiRequestError(res.status, body.success ? body.output : { code: 'HTTP', message: `HTTP ${res.status}` });
}

export const networkError = (err: unknown) =>
	new ApiRequestError(0, { code: 'NETWORK', message: err instanceof Error ? err.message : String(err) });

export const shapeError = (status: number) =>
	new ApiRequestError(status, { code: 'SHAPE', message: 'The server answered with an unexpected shape.' });

/** Codes worded by one fixed sentence. */
const FIXED: Readonly<Record<string, MessageKey>> = {
	NETWORK: 'playError.network',
	SHAPE: 'playError.shape',
	UNAUTHENTICATED: 'playError.signedOut',
	NOT_FOUND: 'playError.notFound',
	TURN_IN_PROGRESS: 'playError.busy',
	NOT_LAST_TURN: 'playError.notLast',
	TURN_UNDONE: 'playError.undone',
	IDEMPOTENCY_KEY_REUSED: 'playError.keyReused',
	TURN_FINISHED: 'playError.turnFinished',
	REGENERATION_OFF: 'playError.regenerationOff',
	MODEL_FIXED: 'playError.modelFixed',
	PROVIDER_UNAVAILABLE: 'playError.providerUnavailable',
	MODEL_REQUIRED: 'playError.modelRequired',
	LANGUAGE_PINNED: 'playError.languagePinned',
	BODY_TOO_LARGE: 'playError.tooLarge',
	LLM_NOT_CONFIGURED: 'play.error.notConfigured',
	INTERNAL: 'playError.internal',
	NOT_YOUR_TURN: 'playError.notYourTurn',
	NOT_ROUND: 'playError.notRound',
	OWNER_ONLY: 'playError.ownerOnly'
};

/** Fields the play page sends, by their path in the request body. */
const FIELD_LABELS: Readonly<Record<string, MessageKey>> = {
	name: 'playError.field.name',
	text: 'playError.field.text',
	title: 'playError.field.title',
	body: 'playError.field.body',
	model: 'playError.field.model',
	provider: 'playError.field.provider'
};

const isFieldProblem = (problem: string): problem is FieldProblemCode => (FIELD_PROBLEMS as readonly string[]).includes(problem);
const isBudgetScope = (scope: string | undefined): scope is BudgetScope => (BUDGET_SCOPES as readonly string[]).includes(scope ?? '');

/** A spending scope in words ("this session"), or the raw name from a newer server. */
export function scopeLabel(scope: string | undefined, t: Translate): string {
	return isBudgetScope(scope) ? t(`spend.scope.${scope}`) : (scope ?? '?');
}

function describeField(field: { path: string; problem: string; limit?: number | undefined }, t: Translate): string {
	const label = FIELD_LABELS[field.path];
	const name = label ? t(label) : t('playError.field.other', { path: field.path });
	const problem = isFieldProblem(field.problem) ? field.problem : 'invalid';
	const bounded = problem === 'tooShort' || problem === 'tooLong' || problem === 'tooSmall' || problem === 'tooLarge';
	if (bounded && field.limit === undefined)
		return t(problem === 'tooLong' ? 'playError.problem.tooLongNoLimit' : 'playError.problem.invalid', { field: name });
	return t(`playError.problem.${problem}`, { field: name, limit: field.limit ?? '' });
}

const timeOf = (iso: string | undefined, locale: string | undefined) => (iso ? new Date(iso).toLocaleString(locale) : '?');

/** One sentence (or a few, one per refused field) for a failed call; anything else thrown reads as a network failure. */
export function describeApiError(err: unknown, t: Translate, locale?: string): string {
	const { status, body } = err instanceof ApiRequestError ? err : networkError(err);
	if (body.fields && body.fields.length > 0) return body.fields.map((f) => describeField(f, t)).join(' ');
	const fixed = FIXED[body.code];
	if (fixed) return t(fixed);
	switch (body.code) {
		case 'SAVE_SLOTS_FULL':
			return t('playError.slotsFull', { limit: body.limit ?? '?' });
		case 'QUOTA_EXCEEDED':
			return t('play.error.quota', { time: timeOf(body.resetsAt, locale) });
		case 'REGENERATION_LIMIT':
			return t('playError.regenerationLimit', { time: timeOf(body.resetsAt, locale) });
		case 'BUDGET_EXCEEDED':
			return t('playError.budget', { scope: scopeLabel(body.scope, t) });
	}
	return status >= 500 ? t('playError.internal') : t('playError.refused', { code: body.code });
}
