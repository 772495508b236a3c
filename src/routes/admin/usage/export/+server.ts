/** The usage report as CSV: `?view=days|models|users&from=YYYY-MM-DD&to=YYYY-MM-DD`. Admins only. */
import { error } from '@sveltejs/kit';
import * as v from 'valibot';
import { getApp } from '$lib/server/app';
import { requireAdmin } from '$lib/server/hooks';
import { CSV_VIEWS, parseRange, usageCsv, usageReport } from '$lib/server/usage';
import { errorPageMessage } from '$lib/i18n/error-page';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = async ({ locals, url }) => {
	requireAdmin(locals, url);
	// A download's refusal is SvelteKit's plain error page, which shows only the message: worded as the error page would.
	const refuse: (refusal: App.Error) => never = (refusal) =>
		error(400, { ...refusal, message: errorPageMessage(locals.language ?? 'en', 400, refusal) });
	const view = v.safeParse(v.picklist(CSV_VIEWS, `view must be one of ${CSV_VIEWS.join(', ')}`), url.searchParams.get('view') ?? 'days');
	if (!view.success) refuse({ message: view.issues[0].message, code: 'BAD_REQUEST' });
	const range = parseRange(url.searchParams);
	if ('error' in range) refuse({ message: range.error, code: 'BAD_RANGE' });
	const csv = usageCsv(await usageReport((await getApp()).control.db, range), view.output);
	return new Response(csv, {
		headers: {
			'content-type': 'text/csv; charset=utf-8',
			'content-disposition': `attachment; filename="kantera-usage-${view.output}-${range.from}-${range.to}.csv"`,
			'cache-control': 'no-store'
		}
	});
};
