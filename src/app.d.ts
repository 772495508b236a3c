// See https://svelte.dev/docs/kit/types#app.d.ts
import type { AuthUser } from '$lib/server/auth';
import type { Language } from '$lib/types/settings';

declare global {
	interface Window {
		/** The keys pressed on a play page before its scripts ran, kept by `src/app.html` (taking them stops the keeping). */
		kanteraEarlyKeys?: { take(): string[] };
	}
	namespace App {
		interface Error {
			message: string;
			code?: string;
			/** An unexpected failure's id in the server log (its message carries it too); the error page words the sentence around it. */
			errorId?: string;
		}
		interface Locals {
			user: AuthUser | null;
			/** The UI language of this request (cookie, else Accept-Language); set by handleLanguage, absent only for handlers called without the hooks (tests). */
			language?: Language;
			/** This request's id in the request log (and its X-Request-Id); set by handleRequestLog. */
			requestId?: string;
		}
	}
}

export {};
