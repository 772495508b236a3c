/**
 * The one place the API maps typed errors of the server modules to HTTP statuses. Anything not
 * listed here is unexpected and goes on to SvelteKit's error funnel (500 with an error id).
 */
import { isHttpError } from '@sveltejs/kit';
import { InvitationError, NotYourTurnError, PlaySessionNotFoundError, PlaySessionValidationError, TooEarlyToSkipError } from '../sessions';
import { QuotaExceededError, TurnError } from '../turn';
import { isRecordError } from '../records';
import { LLM_SETUP_HINT } from '../config';
import { ImageJobError, RegenerationLimitError } from '../images';
import { BudgetExceededError } from '../budget';
import { PresetError } from '../presets';
import { GalleryError } from '../gallery';
import { MAX_SAVE_SLOTS, TimeTravelError } from '../timetravel';
import { ApiError } from './errors';
import { TierError } from '../tiers';
import { errorResponse } from './respond';

const MS_PER_SECOND = 1000;

const TURN_ERRORS: Record<TurnError['code'], { status: number; code: string }> = {
	invalid_input: { status: 400, code: 'INVALID_INPUT' },
	conflict: { status: 409, code: 'TURN_IN_PROGRESS' },
	quota_exceeded: { status: 429, code: 'QUOTA_EXCEEDED' },
	not_configured: { status: 503, code: 'LLM_NOT_CONFIGURED' },
	not_found: { status: 404, code: 'NOT_FOUND' },
	not_cancellable: { status: 409, code: 'TURN_FINISHED' }
};

const PRESET_ERRORS: Record<PresetError['code'], { status: number; code: string }> = {
	not_found: { status: 404, code: 'NOT_FOUND' },
	forbidden: { status: 403, code: 'FORBIDDEN' },
	read_only: { status: 403, code: 'READ_ONLY' },
	invalid: { status: 400, code: 'INVALID_PRESET' },
	not_playable: { status: 409, code: 'NOT_PLAYABLE' },
	rate_limited: { status: 429, code: 'PUBLISH_RATE_LIMITED' },
	bad_import: { status: 400, code: 'BAD_IMPORT' },
	bad_image: { status: 400, code: 'BAD_IMAGE' },
	bad_audio: { status: 400, code: 'BAD_AUDIO' }
};

const TIME_TRAVEL_ERRORS: Record<TimeTravelError['code'], { status: number; code: string }> = {
	busy: { status: 409, code: 'TURN_IN_PROGRESS' },
	not_last: { status: 409, code: 'NOT_LAST_TURN' },
	already_undone: { status: 409, code: 'TURN_UNDONE' },
	whisper: { status: 409, code: 'WHISPER_NOT_REROLLED' },
	key_reused: { status: 409, code: 'IDEMPOTENCY_KEY_REUSED' },
	not_found: { status: 404, code: 'NOT_FOUND' },
	slots_full: { status: 409, code: 'SAVE_SLOTS_FULL' }
};

const INVITATION_ERRORS: Record<InvitationError['code'], { status: number; code: string }> = {
	not_found: { status: 404, code: 'NOT_FOUND' },
	gone: { status: 410, code: 'INVITATION_GONE' },
	full: { status: 409, code: 'SESSION_FULL' },
	removed: { status: 403, code: 'REMOVED' }
};

/** Whole seconds until `at`, at least 1: Retry-After takes integer seconds. */
function retryAfterSeconds(at: Date, now = Date.now()): number {
	return Math.max(1, Math.ceil((at.getTime() - now) / MS_PER_SECOND));
}

export function toErrorResponse(err: unknown): Response | undefined {
	if (err instanceof ApiError)
		return errorResponse(err.status, { message: err.message, code: err.code, ...err.extra.body }, err.extra.headers);
	if (err instanceof TierError) return errorResponse(403, { message: err.message, code: err.code });
	if (err instanceof PlaySessionNotFoundError) return errorResponse(404, { message: err.message, code: 'NOT_FOUND' });
	if (err instanceof TooEarlyToSkipError)
		return errorResponse(409, { message: err.message, code: 'TOO_EARLY_TO_SKIP', skippableAt: new Date(err.skippableAt).toISOString() });
	if (err instanceof NotYourTurnError)
		return errorResponse(409, { message: err.message, code: 'NOT_YOUR_TURN', currentSeat: err.currentSeat });
	if (err instanceof InvitationError) {
		const { status, code } = INVITATION_ERRORS[err.code];
		return errorResponse(status, { message: err.message, code });
	}
	if (err instanceof PlaySessionValidationError) return errorResponse(400, { message: err.message, code: 'INVALID_BODY' });
	if (err instanceof QuotaExceededError) {
		return errorResponse(
			429,
			{ message: err.message, code: 'QUOTA_EXCEEDED', resetsAt: err.resetsAt.toISOString() },
			{ 'retry-after': String(retryAfterSeconds(err.resetsAt)) }
		);
	}
	if (err instanceof TurnError) {
		const { status, code } = TURN_ERRORS[err.code];
		return errorResponse(status, {
			message: err.message,
			code,
			...(err.code === 'not_configured' ? { hint: LLM_SETUP_HINT } : {}),
			...(err.field ? { fields: [err.field] } : {})
		});
	}
	if (err instanceof TimeTravelError) {
		const { status, code } = TIME_TRAVEL_ERRORS[err.code];
		return errorResponse(status, { message: err.message, code, ...(err.code === 'slots_full' ? { limit: MAX_SAVE_SLOTS } : {}) });
	}
	if (err instanceof RegenerationLimitError) {
		return errorResponse(
			429,
			{ message: err.message, code: 'REGENERATION_LIMIT', resetsAt: err.resetsAt.toISOString() },
			{ 'retry-after': String(retryAfterSeconds(err.resetsAt)) }
		);
	}
	if (err instanceof ImageJobError)
		return errorResponse(err.code === 'not_found' ? 404 : 400, {
			message: err.message,
			code: err.code === 'not_found' ? 'NOT_FOUND' : 'INVALID_BODY'
		});
	if (err instanceof BudgetExceededError)
		return errorResponse(429, { message: `${err.message}. Nothing was ordered or charged.`, code: 'BUDGET_EXCEEDED', scope: err.scope });
	if (err instanceof PresetError) {
		const { status, code } = PRESET_ERRORS[err.code];
		const { issues, retryAt } = err.details;
		return errorResponse(
			status,
			{ message: err.message, code, ...(issues ? { issues: [...issues] } : {}), ...(retryAt ? { resetsAt: retryAt.toISOString() } : {}) },
			retryAt ? { 'retry-after': String(retryAfterSeconds(retryAt)) } : {}
		);
	}
	if (err instanceof GalleryError) return errorResponse(400, { message: err.message, code: 'INVALID_QUERY' });
	if (isRecordError(err, 'not_found')) return errorResponse(404, { message: err.message, code: 'NOT_FOUND' });
	if (isRecordError(err, 'invalid_input')) return errorResponse(400, { message: err.message, code: 'INVALID_INPUT' });
	// requireApiUser and SvelteKit helpers throw these with an App.Error body.
	if (isHttpError(err)) return errorResponse(err.status, { message: err.body.message, code: err.body.code ?? 'ERROR' });
	return undefined;
}
