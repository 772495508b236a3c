/**
 * The one error type of the records layer. Its message is written for whoever reads it next — often
 * the GM model through a tool error — so it says what was wrong and what to do instead.
 */
export type RecordErrorCode = 'not_found' | 'duplicate' | 'append_only' | 'truth_exists' | 'invalid_patch' | 'invalid_input' | 'conflict';

export class RecordError extends Error {
	constructor(
		readonly code: RecordErrorCode,
		message: string
	) {
		super(message);
		this.name = 'RecordError';
	}
}

export function isRecordError(err: unknown, code?: RecordErrorCode): err is RecordError {
	return err instanceof RecordError && (code === undefined || err.code === code);
}
