/** What `src/hooks.server.ts` plugs in, plus the small request guards routes share. */
export { handleAuth, setSessionCookie, clearSessionCookie } from './auth';
export { handleBodySize } from './body-size';
export { handleLanguage } from './language';
export { handleServerError, describeError } from './errors';
export { requireUser, requireApiUser, safeRedirectTarget, formText } from './guards';
