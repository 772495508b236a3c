import type { LayoutServerLoad } from './$types';

/** Only what the nav needs goes to the browser: never the user's id or anything secret. */
export const load: LayoutServerLoad = ({ locals }) => ({
	user: locals.user ? { name: locals.user.name, isAdmin: locals.user.isAdmin } : null
});
