import type { FieldProblem } from '../../types/api';

/** Why a turn could not be accepted. Routes map these to HTTP statuses. */
export class TurnError extends Error {
	constructor(
		readonly code: 'conflict' | 'quota_exceeded' | 'invalid_input' | 'not_configured' | 'not_found' | 'not_cancellable',
		message: string,
		/** invalid_input: the field and its problem, for a client to word (the message is English). */
		readonly field?: FieldProblem
	) {
		super(message);
		this.name = 'TurnError';
	}
}

export class QuotaExceededError extends TurnError {
	constructor(
		readonly quota: number,
		readonly resetsAt: Date
	) {
		super('quota_exceeded', `You have played your ${quota} free turns for today. The quota resets at ${resetsAt.toISOString()}.`);
		this.name = 'QuotaExceededError';
	}
}

/** Thrown inside a running turn when the player cancelled it. */
export class TurnCancelledError extends Error {
	constructor() {
		super('the turn was cancelled');
		this.name = 'TurnCancelledError';
	}
}

/** Thrown at commit when this runner no longer holds the turn's lease (another process took over). */
export class LeaseLostError extends Error {
	constructor(turnId: string) {
		super(`lost the lease on turn ${turnId}`);
		this.name = 'LeaseLostError';
	}
}
