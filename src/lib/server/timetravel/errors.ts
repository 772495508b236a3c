/** Why an undo, reroll, edit, save or load could not be done. Routes map these to HTTP statuses. */
export class TimeTravelError extends Error {
	constructor(
		readonly code: 'busy' | 'not_last' | 'already_undone' | 'key_reused' | 'not_found' | 'slots_full' | 'whisper',
		message: string
	) {
		super(message);
		this.name = 'TimeTravelError';
	}
}
