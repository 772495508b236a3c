export class PlaySessionError extends Error {
	constructor(message: string) {
		super(message);
		this.name = new.target.name;
	}
}

/** Unknown id, malformed id, or someone else's session: all look the same from outside (404). */
export class PlaySessionNotFoundError extends PlaySessionError {
	constructor() {
		super('No such play session.');
	}
}

export class PlaySessionValidationError extends PlaySessionError {
	constructor(readonly fields: Readonly<Record<string, string>>) {
		super(Object.values(fields).join(' '));
	}
}
