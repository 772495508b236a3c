/** Preset errors as page errors: a page or form action that can't go on answers with the right status. */
import { error } from '@sveltejs/kit';
import { isPresetError } from './errors';

const STATUS = {
	not_found: 404,
	forbidden: 403,
	read_only: 403,
	invalid: 400,
	not_playable: 409,
	rate_limited: 429,
	bad_import: 400,
	bad_image: 400,
	bad_audio: 400
} as const;

/** Rethrows a PresetError as SvelteKit's error page; anything else is rethrown as it is. */
export function presetPageError(err: unknown): never {
	if (isPresetError(err)) {
		if (err.code === 'not_found') error(404, { message: 'There is no preset at this address.', code: 'NOT_FOUND' });
		error(STATUS[err.code], { message: err.message, code: err.code.toUpperCase() });
	}
	throw err;
}
