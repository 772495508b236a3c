/**
 * Reading the event stream's `data:` lines. The server is ours, but what arrives over the network is
 * outside data: each event is checked field by field before the screen acts on it, and anything
 * that is not a well-formed event is dropped (and reported by the caller).
 */
import { FAILURE_CLASSES, type BudgetScope, type FailureClass, type SessionEvent } from '../types/events';

type Fields = Record<string, unknown>;

function str(o: Fields, key: string): string | null {
	const v = o[key];
	return typeof v === 'string' ? v : null;
}

function num(o: Fields, key: string): number | null {
	const v = o[key];
	return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

const SCOPES: readonly BudgetScope[] = ['turn', 'session', 'user_day', 'global_month'];

function scope(v: unknown): BudgetScope | null {
	return SCOPES.find((s) => s === v) ?? null;
}

function failureClass(v: unknown): FailureClass | null {
	return FAILURE_CLASSES.find((c) => c === v) ?? null;
}

function target(v: unknown): 'npc' | 'scene' | null {
	return v === 'npc' || v === 'scene' ? v : null;
}

function numbers(v: unknown): number[] | null {
	if (!Array.isArray(v)) return null;
	const out: number[] = [];
	for (const n of v) {
		if (typeof n !== 'number' || !Number.isInteger(n)) return null;
		out.push(n);
	}
	return out;
}

/** The event in a JSON `data:` payload, or null when it is not one the screen knows. */
export function readSessionEvent(data: string): SessionEvent | null {
	let parsed: unknown;
	try {
		parsed = JSON.parse(data);
	} catch {
		return null;
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
	const o: Fields = { ...parsed };
	const turnId = str(o, 'turnId');
	switch (o.type) {
		case 'turn.accepted': {
			const input = str(o, 'input');
			return turnId !== null && input !== null ? { type: 'turn.accepted', turnId, input } : null;
		}
		case 'turn.started':
		case 'turn.cancelled':
		case 'turn.interrupted':
		case 'checkpoint.started':
			return turnId !== null ? { type: o.type, turnId } : null;
		case 'text.delta': {
			const text = str(o, 'text');
			return turnId !== null && text !== null ? { type: 'text.delta', turnId, text } : null;
		}
		case 'tool.activity': {
			const tool = str(o, 'tool');
			return turnId !== null && tool !== null ? { type: 'tool.activity', turnId, tool } : null;
		}
		case 'checkpoint.done': {
			const summaryId = num(o, 'summaryId');
			return turnId !== null && summaryId !== null ? { type: 'checkpoint.done', turnId, summaryId } : null;
		}
		case 'turn.committed': {
			const reply = str(o, 'reply');
			const messageIds = numbers(o.messageIds);
			const stopped = str(o, 'stopped');
			if (turnId === null || reply === null || messageIds === null) return null;
			return stopped === null ? { type: 'turn.committed', turnId, reply, messageIds } : { type: 'turn.committed', turnId, reply, messageIds, stopped };
		}
		case 'turn.failed': {
			const reason = failureClass(o.reason);
			const errorId = str(o, 'errorId');
			const retryable = o.retryable;
			return turnId !== null && reason !== null && errorId !== null && typeof retryable === 'boolean' ? { type: 'turn.failed', turnId, reason, errorId, retryable } : null;
		}
		case 'budget.warning': {
			const s = scope(o.scope);
			const message = str(o, 'message');
			return s !== null && message !== null ? { type: 'budget.warning', scope: s, message } : null;
		}
		case 'image.ready':
		case 'image.failed': {
			const orderId = num(o, 'orderId');
			const t = target(o.target);
			const name = str(o, 'name');
			if (orderId === null || t === null || name === null) return null;
			if (o.type === 'image.ready') {
				const url = str(o, 'url');
				return url !== null ? { type: 'image.ready', orderId, target: t, name, url } : null;
			}
			const error = str(o, 'error');
			return error !== null ? { type: 'image.failed', orderId, target: t, name, error } : null;
		}
		default:
			return null;
	}
}

/** Every event type the stream sends, for `addEventListener` (the server names each event). */
export const SESSION_EVENT_TYPES = [
	'turn.accepted',
	'turn.started',
	'text.delta',
	'tool.activity',
	'checkpoint.started',
	'checkpoint.done',
	'turn.committed',
	'turn.failed',
	'turn.cancelled',
	'turn.interrupted',
	'budget.warning',
	'image.ready',
	'image.failed'
] as const satisfies readonly SessionEvent['type'][];
