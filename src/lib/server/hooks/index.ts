/** What `src/hooks.server.ts` plugs in, plus the small request guards routes share. */
export { handleAuth, startCookieSession, clearSessionCookie } from './auth';
export { handleBodySize } from './body-size';
export { handleBackground } from './background';
export { handleApiErrors } from './api-errors';
export { handleSecurityHeaders } from './security-headers';
export { handleLanguage } from './language';
export { handleServerError } from './errors';
export { clientAddress } from './client-address';
export { requireUser, requireAdmin, safeRedirectTarget, formText } from './guards';
export { credentialsAction, type Credentials } from './credentials';
