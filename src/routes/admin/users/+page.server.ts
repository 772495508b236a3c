import { fail } from '@sveltejs/kit';
import * as v from 'valibot';
import { getApp } from '$lib/server/app';
import {
	AdminActError,
	adminDeleteAccount,
	adminPasswordReset,
	adminRevokeSignIns,
	adminSetTier,
	adminSuspend,
	listAccounts
} from '$lib/server/api';
import { formText, requireAdmin } from '$lib/server/hooks';
import type { AuthUser } from '$lib/server/auth';
import { TierSchema } from '$lib/types/account';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url, setHeaders }) => {
	requireAdmin(locals, url);
	setHeaders({ 'x-robots-tag': 'noindex' });
	const accounts = await listAccounts(await getApp());
	return {
		me: locals.user?.id ?? '',
		users: accounts.map((u) => ({
			id: u.id,
			name: u.name,
			isAdmin: u.isAdmin,
			tier: u.tier,
			createdAt: u.createdAt,
			suspendedAt: u.suspendedAt
		}))
	};
};

type Done =
	| { name: string; did: 'tier' | 'suspended' | 'unsuspended' | 'revoked' | 'deleted'; tier?: string }
	| { name: string; resetUrl: string; expiresAt: string };

/** Runs an admin act on the posted account; a refusal comes back as a code the page words in the reader's language. */
async function act(
	{ request, locals, url }: { request: Request; locals: App.Locals; url: URL },
	fn: (admin: AuthUser, userId: string, data: FormData) => Promise<Done>
) {
	const admin = requireAdmin(locals, url);
	const data = await request.formData();
	try {
		return { updated: await fn(admin, formText(data, 'userId'), data) };
	} catch (err) {
		if (err instanceof AdminActError) return fail(err.code === 'admin.noSuchUser' ? 404 : 400, { error: err.code });
		if (err instanceof BadField) return fail(400, { error: err.code });
		throw err;
	}
}

class BadField extends Error {
	constructor(readonly code: 'admin.badTier' | 'admin.confirmName') {
		super(code);
	}
}

export const actions = {
	tier: async (event) =>
		act(event, async (admin, userId, data) => {
			const tier = v.safeParse(TierSchema, formText(data, 'tier'));
			if (!tier.success) throw new BadField('admin.badTier');
			const user = await adminSetTier(await getApp(), admin, userId, tier.output);
			return { name: user.name, did: 'tier', tier: user.tier };
		}),
	suspend: async (event) =>
		act(event, async (admin, userId, data) => {
			const on = formText(data, 'suspended') === 'true';
			const user = await adminSuspend(await getApp(), admin, userId, on);
			return { name: user.name, did: on ? 'suspended' : 'unsuspended' };
		}),
	revoke: async (event) =>
		act(event, async (admin, userId) => ({ name: (await adminRevokeSignIns(await getApp(), admin, userId)).name, did: 'revoked' })),
	reset: async (event) =>
		act(event, async (admin, userId) => {
			const { user, path, expiresAt } = await adminPasswordReset(await getApp(), admin, userId);
			return { name: user.name, resetUrl: new URL(path, event.url).href, expiresAt: expiresAt.toISOString() };
		}),
	/** Deleting needs the account's name typed again: it cannot be undone. */
	delete: async (event) =>
		act(event, async (admin, userId, data) => {
			const app = await getApp();
			const listed = (await listAccounts(app)).find((u) => u.id === userId);
			if (listed && formText(data, 'confirm').trim() !== listed.name) throw new BadField('admin.confirmName');
			return { name: (await adminDeleteAccount(app, admin, userId)).name, did: 'deleted' };
		})
} satisfies Actions;
