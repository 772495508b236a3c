/**
 * The whole stream protocol between server and browser: one discriminated union, shared by the SSE
 * endpoint, the event log and the client. Add a member here and both sides see it.
 */

export type TurnStatus = 'accepted' | 'running' | 'committed' | 'failed' | 'interrupted' | 'cancelled';

export type BudgetScope = 'turn' | 'session' | 'user_day' | 'global_month';

/**
 * Why a turn failed, by class. Players get fixed, localised words for each, never the provider's own
 * message (which may quote the GM-only prompt back); the details are in the server log under the
 * failure's error id.
 */
export const FAILURE_CLASSES = ['rate_limited', 'provider_unavailable', 'timed_out', 'refused', 'protocol_error', 'misconfigured', 'internal'] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];

/** How a failed turn is shown: its class and the id the operator finds the details under. */
export interface TurnFailure {
	reason: FailureClass;
	errorId: string;
}

export type SessionEvent =
	| { type: 'turn.accepted'; turnId: string; input: string }
	| { type: 'turn.started'; turnId: string }
	/** A piece of the GM's reply as it streams. Discard a turn's deltas if it ends failed or cancelled. */
	| { type: 'text.delta'; turnId: string; text: string }
	/** The GM used a tool. Only the name of a player-visible tool; never arguments. */
	| { type: 'tool.activity'; turnId: string; tool: string }
	| { type: 'checkpoint.started'; turnId: string }
	| { type: 'checkpoint.done'; turnId: string; summaryId: number }
	| { type: 'turn.committed'; turnId: string; reply: string; messageIds: number[]; stopped?: string }
	| { type: 'turn.failed'; turnId: string; reason: FailureClass; errorId: string; retryable: boolean }
	| { type: 'turn.cancelled'; turnId: string }
	| { type: 'turn.interrupted'; turnId: string }
	| { type: 'budget.warning'; scope: BudgetScope; message: string }
	/** An image job finished: the stage swaps the placeholder of that character or place for `url`. */
	| { type: 'image.ready'; orderId: number; target: 'npc' | 'scene'; name: string; url: string }
	/** An image job gave up after its retries; the placeholder (or the previous image) stays. */
	| { type: 'image.failed'; orderId: number; target: 'npc' | 'scene'; name: string; error: string };

export type SessionEventType = SessionEvent['type'];

/** An event as stored in the log and sent over SSE: the log id is the SSE `id:`. */
export interface LoggedEvent {
	id: number;
	event: SessionEvent;
}
