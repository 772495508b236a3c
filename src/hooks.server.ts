import { sequence } from '@sveltejs/kit/hooks';
import { handleAuth, handleBodySize, handleLanguage, handleServerError } from '$lib/server/hooks';

// The size guard runs first so an oversize upload costs no database look-up.
export const handle = sequence(handleBodySize, handleAuth, handleLanguage);
export const handleError = handleServerError;
