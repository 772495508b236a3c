import { fail } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import { createToken, listTokens, revokeToken, expiryFromDays, AuthValidationError, TokenNotFoundError } from '$lib/server/auth';
import { formText, requireUser } from '$lib/server/hooks';
import { translate } from '$lib/i18n/all-languages';
import type { Actions, PageServerLoad } from './$types';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const load: PageServerLoad = async ({ locals, url }) => {
	const user = requireUser(locals, url);
	const tokens = await listTokens(await getApp(), user.id);
	return {
		tokens: tokens.map((t) => ({
			id: t.id,
			name: t.name,
			createdAt: t.createdAt.toISOString(),
			expiresAt: iso(t.expiresAt),
			lastUsedAt: iso(t.lastUsedAt)
		}))
	};
};

export const actions = {
	create: async ({ request, locals, url }) => {
		const user = requireUser(locals, url);
		const data = await request.formData();
		const name = formText(data, 'name');
		const expiresDays = formText(data, 'expiresDays');
		// Field errors come back in the reader's language, like the rest of the page.
		const language = locals.language ?? 'en';
		try {
			const expiresAt = expiryFromDays(expiresDays, { language });
			const created = await createToken(await getApp(), user.id, name, { expiresAt, language });
			// The plaintext goes to this one response and nowhere else; it is not stored.
			return { created: { name: created.name, token: created.token, expiresAt: iso(created.expiresAt) } };
		} catch (err) {
			if (err instanceof AuthValidationError) return fail(400, { create: { name, expiresDays, errors: err.fields } });
			throw err;
		}
	},
	revoke: async ({ request, locals, url }) => {
		const user = requireUser(locals, url);
		const id = formText(await request.formData(), 'id');
		try {
			await revokeToken(await getApp(), user.id, id);
		} catch (err) {
			if (err instanceof TokenNotFoundError) return fail(404, { revoke: { error: translate(locals.language ?? 'en', 'tokens.notFound') } });
			throw err;
		}
		return { revoked: true };
	}
} satisfies Actions;
