import { getApp } from '$lib/server/app';
import { turnsToday } from '$lib/server/tiers';
import type { LayoutServerLoad } from './$types';

/** Only what the nav needs goes to the browser: never the user's id or anything secret. */
export const load: LayoutServerLoad = async ({ locals }) => {
	const { config, control } = await getApp();
	const turns = locals.user ? await turnsToday(control.db, config, locals.user.id, locals.user.tier) : null;
	return {
		user: locals.user ? { name: locals.user.name, isAdmin: locals.user.isAdmin } : null,
		// Shown in the nav on every page: a free player always sees the turns left today.
		turnsLeft: turns && turns.left !== null ? { left: turns.left, limit: turns.limit ?? 0 } : null,
		// The UI language: the nav's switch (cookie), else the browser's (see handleLanguage).
		language: locals.language ?? 'en',
		// Said plainly on every page of a signed-in user: without a provider no turn can be played.
		llmMissing: locals.user !== null && !config.llm.configured
	};
};
