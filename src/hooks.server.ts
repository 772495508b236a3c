import { sequence } from '@sveltejs/kit/hooks';
import { handleApiErrors, handleAuth, handleBodySize, handleLanguage, handleServerError } from '$lib/server/hooks';

// API errors are made JSON around everything else; the size guard runs before any database look-up.
export const handle = sequence(handleApiErrors, handleBodySize, handleAuth, handleLanguage);
export const handleError = handleServerError;
