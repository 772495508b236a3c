// See https://svelte.dev/docs/kit/types#app.d.ts
import type { AuthUser } from '$lib/server/auth';
import type { UiLanguage } from '$lib/i18n';

declare global {
	namespace App {
		interface Error {
			message: string;
			code?: string;
		}
		interface Locals {
			user: AuthUser | null;
			/** The UI language of this request (cookie, else Accept-Language); set by handleLanguage, absent only for handlers called without the hooks (tests). */
			language?: UiLanguage;
		}
	}
}

export {};
