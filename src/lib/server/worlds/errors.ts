/** Errors of the worlds module: a world that does not exist, or a session that can't take one. */
export type WorldErrorCode = 'unknown_world' | 'invalid_world' | 'not_empty';

export class WorldError extends Error {
	constructor(
		readonly code: WorldErrorCode,
		message: string
	) {
		super(message);
		this.name = 'WorldError';
	}
}
