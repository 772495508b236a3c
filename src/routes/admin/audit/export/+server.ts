/** The whole audit log as CSV, oldest first. Admins only. */
import { getApp } from '$lib/server/app';
import { auditCsv } from '$lib/server/audit';
import { requireAdmin } from '$lib/server/hooks';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = async ({ locals, url }) => {
	requireAdmin(locals, url);
	return new Response(await auditCsv((await getApp()).control.db), {
		headers: {
			'content-type': 'text/csv; charset=utf-8',
			'content-disposition': `attachment; filename="kantera-audit-${new Date().toISOString().slice(0, 10)}.csv"`,
			'cache-control': 'no-store'
		}
	});
};
