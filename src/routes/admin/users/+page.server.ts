import { fail } from '@sveltejs/kit';
import * as v from 'valibot';
import { getApp } from '$lib/server/app';
import { listUsers, setTier } from '$lib/server/auth';
import { formText, requireAdmin } from '$lib/server/hooks';
import { TierSchema } from '$lib/types/account';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireAdmin(locals, url);
	const users = await listUsers(await getApp());
	return { users: users.map((u) => ({ id: u.id, name: u.name, isAdmin: u.isAdmin, tier: u.tier })) };
};

export const actions = {
	tier: async ({ request, locals, url }) => {
		requireAdmin(locals, url);
		const data = await request.formData();
		const tier = v.safeParse(TierSchema, formText(data, 'tier'));
		if (!tier.success) return fail(400, { error: 'admin.badTier' as const });
		const user = await setTier(await getApp(), formText(data, 'userId'), tier.output);
		if (!user) return fail(404, { error: 'admin.noSuchUser' as const });
		// The page words it in the reader's language.
		return { updated: { name: user.name, tier: user.tier } };
	}
} satisfies Actions;
