/** The error type of the stage layer; its message is written for the GM model, which reads it as a tool error. */
export type StageErrorCode = 'invalid_input' | 'not_found';

export class StageError extends Error {
	constructor(
		readonly code: StageErrorCode,
		message: string
	) {
		super(message);
		this.name = 'StageError';
	}
}
