import { sequence } from '@sveltejs/kit/hooks';
import { handleApiErrors, handleAuth, handleBodySize, handleLanguage, handleSecurityHeaders, handleServerError } from '$lib/server/hooks';

// Security headers go on every answer, API errors are made JSON around everything else, and the size
// guard runs before any database look-up.
export const handle = sequence(handleSecurityHeaders, handleApiErrors, handleBodySize, handleAuth, handleLanguage);
export const handleError = handleServerError;
