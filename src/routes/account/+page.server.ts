import { fail } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import {
	authErrorText,
	AuthValidationError,
	hasPassword,
	LastWayInError,
	listIdentities,
	renameUser,
	setShowMature,
	showsMature,
	unlinkIdentity,
	UsernameTakenError
} from '$lib/server/auth';
import { formText, requireUser } from '$lib/server/hooks';
import { fixedModel, turnsToday } from '$lib/server/tiers';
import { isSignInProvider, type SignInProvider } from '$lib/types/account';
import type { Actions, PageServerLoad } from './$types';

const PROBLEMS = ['state', 'token', 'denied', 'provider', 'signup_closed', 'in_use', 'not_signed_in'] as const;

export const load: PageServerLoad = async ({ locals, url }) => {
	const user = requireUser(locals, url);
	const app = await getApp();
	const identities = await listIdentities(app, user.id);
	const turns = await turnsToday(app.control.db, app.config, user.id, user.tier);
	const linked = url.searchParams.get('linked');
	const error = url.searchParams.get('error');
	const fixed = fixedModel(app.config, user.tier);
	return {
		account: { name: user.name, tier: user.tier },
		password: app.config.auth.localAccounts && (await hasPassword(app, user.id)),
		providers: app.signIn.list().map((p) => ({ ...p, linked: identities.filter((i) => i.provider === p.id).map((i) => i.label) })),
		turns: { limit: turns.limit, used: turns.used, left: turns.left, resetsAt: turns.resetsAt.toISOString() },
		freeTurns: app.config.engine.freeTurnsPerDay,
		freeModel: fixed
			? `${fixed.provider}/${fixed.model}`
			: app.config.tiers.freeModel
				? `${app.config.tiers.freeModel.provider}/${app.config.tiers.freeModel.model}`
				: null,
		regenerations: app.config.images.regenerationsPerDay,
		// Null when the operator turned mature worlds off: there is nothing to opt into.
		showMature: app.config.presets.matureContent ? await showsMature(app.control.db, user.id) : null,
		welcome: url.searchParams.get('welcome') === '1',
		linked: isSignInProvider(linked) ? linked : null,
		problem: PROBLEMS.find((p) => p === error) ?? null
	};
};

export const actions = {
	rename: async ({ request, locals, url }) => {
		const user = requireUser(locals, url);
		const name = formText(await request.formData(), 'name');
		try {
			const renamed = await renameUser(await getApp(), user.id, name, locals.language ?? 'en');
			return { renamed: renamed.name };
		} catch (err) {
			if (err instanceof AuthValidationError) return fail(400, { rename: { name, error: err.fields.name ?? err.message } });
			if (err instanceof UsernameTakenError) return fail(400, { rename: { name, error: authErrorText(err, locals.language ?? 'en') } });
			throw err;
		}
	},
	mature: async ({ request, locals, url }) => {
		const user = requireUser(locals, url);
		const app = await getApp();
		const on = formText(await request.formData(), 'showMature') === 'on';
		if (!app.config.presets.matureContent) return fail(409, { mature: { off: true } });
		await setShowMature(app.control.db, user.id, on);
		return { mature: { saved: on } };
	},
	unlink: async ({ request, locals, url }) => {
		const user = requireUser(locals, url);
		const provider = formText(await request.formData(), 'provider');
		if (!isSignInProvider(provider)) return fail(400, { unlink: { badProvider: true } });
		try {
			await unlinkIdentity(await getApp(), user.id, provider);
		} catch (err) {
			if (err instanceof LastWayInError) return fail(409, { unlink: { provider, lastWayIn: true } });
			throw err;
		}
		return { unlinked: provider satisfies SignInProvider };
	}
} satisfies Actions;
