import { fail } from '@sveltejs/kit';
import * as v from 'valibot';
import { getApp } from '$lib/server/app';
import { formText, requireAdmin } from '$lib/server/hooks';
import { adminDismissReports, adminLiftTakedown, adminTakeDown } from '$lib/server/api';
import { isPresetError, isPresetId, openReports, takedownsInForce, TakedownReasonSchema } from '$lib/server/presets';
import type { AuthUser } from '$lib/server/auth';
import type { Actions, PageServerLoad } from './$types';

const PresetIdField = v.pipe(
	v.string(),
	v.check((id: string) => isPresetId(id), 'not a preset id')
);

/** A takedown without a reason: the author is owed one. */
class ReasonNeeded extends Error {}

/** Runs an admin act on the posted preset; refusals come back as codes the page words in the reader's language. */
async function act(
	{ request, locals, url }: { request: Request; locals: App.Locals; url: URL },
	fn: (admin: AuthUser, id: string, data: FormData) => Promise<void>
) {
	const admin = requireAdmin(locals, url);
	const data = await request.formData();
	const id = v.safeParse(PresetIdField, formText(data, 'presetId'));
	if (!id.success) return fail(400, { error: 'admin.reports.badId' as const });
	try {
		await fn(admin, id.output, data);
	} catch (err) {
		if (err instanceof ReasonNeeded) return fail(400, { error: 'admin.reports.reasonNeeded' as const });
		if (isPresetError(err, 'not_found')) return fail(404, { error: 'admin.reports.notFound' as const });
		throw err;
	}
	return { done: id.output };
}

export const load: PageServerLoad = async ({ locals, url, setHeaders }) => {
	requireAdmin(locals, url);
	setHeaders({ 'x-robots-tag': 'noindex' });
	const app = await getApp();
	return { reports: await openReports(app.control.db), takedowns: await takedownsInForce(app.control.db) };
};

export const actions = {
	/** Takes the preset down with the reason the admin wrote (its author reads it), resolving its reports. */
	takeDown: async (event) =>
		act(event, async (admin, id, data) => {
			const reason = v.safeParse(TakedownReasonSchema, formText(data, 'reason'));
			if (!reason.success) throw new ReasonNeeded();
			await adminTakeDown(await getApp(), admin, id, reason.output);
		}),
	dismiss: async (event) => act(event, async (admin, id) => adminDismissReports(await getApp(), admin, id)),
	lift: async (event) => act(event, async (admin, id) => adminLiftTakedown(await getApp(), admin, id))
} satisfies Actions;
