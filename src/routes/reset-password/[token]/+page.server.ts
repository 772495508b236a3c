import { fail } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import { AuthValidationError, passwordResetUser, resetPassword } from '$lib/server/auth';
import { formText } from '$lib/server/hooks';
import type { Actions, PageServerLoad } from './$types';

/** A reset link an administrator made: the account's name while it works, else a page saying it does not. */
export const load: PageServerLoad = async ({ params, setHeaders }) => {
	// The token is in the address: keep it out of caches and referrers.
	setHeaders({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex' });
	const user = await passwordResetUser(await getApp(), params.token);
	return { name: user?.name ?? null };
};

export const actions = {
	default: async ({ params, request, locals }) => {
		const data = await request.formData();
		try {
			const user = await resetPassword(await getApp(), params.token, formText(data, 'password'), { language: locals.language ?? 'en' });
			if (!user) return fail(410, { gone: true as const });
			return { done: user.name };
		} catch (err) {
			if (err instanceof AuthValidationError) return fail(400, { message: Object.values(err.fields).join(' ') });
			throw err;
		}
	}
} satisfies Actions;
