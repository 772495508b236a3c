import { error } from '@sveltejs/kit';
import { getApp } from '$lib/server/app';
import { requireAdmin } from '$lib/server/hooks';
import { canonGuardReport, parseRange, usageReport } from '$lib/server/usage';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireAdmin(locals, url);
	const range = parseRange(url.searchParams);
	// The error page words BAD_RANGE in the reader's language; the message is its English.
	if ('error' in range) error(400, { message: range.error, code: 'BAD_RANGE' });
	const { db } = (await getApp()).control;
	return { report: await usageReport(db, range), canon: await canonGuardReport(db) };
};
