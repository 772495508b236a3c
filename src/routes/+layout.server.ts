import { getApp } from '$lib/server/app';
import { LLM_SETUP_HINT } from '$lib/server/config';
import type { LayoutServerLoad } from './$types';

/** Only what the nav needs goes to the browser: never the user's id or anything secret. */
export const load: LayoutServerLoad = async ({ locals }) => {
	const { config } = await getApp();
	return {
		user: locals.user ? { name: locals.user.name, isAdmin: locals.user.isAdmin } : null,
		// The UI language: the nav's switch (cookie), else the browser's (see handleLanguage).
		language: locals.language ?? 'en',
		// Said plainly on every page of a signed-in user: without a provider no turn can be played.
		llmSetupHint: locals.user && !config.llm.configured ? LLM_SETUP_HINT : null
	};
};
