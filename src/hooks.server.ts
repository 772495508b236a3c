import { sequence } from '@sveltejs/kit/hooks';
import { handleAuth, handleBodySize, handleServerError } from '$lib/server/hooks';

// The size guard runs first so an oversize upload costs no database look-up.
export const handle = sequence(handleBodySize, handleAuth);
export const handleError = handleServerError;
