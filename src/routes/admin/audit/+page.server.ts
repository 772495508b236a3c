import * as v from 'valibot';
import { getApp } from '$lib/server/app';
import { listAudit } from '$lib/server/audit';
import { requireAdmin } from '$lib/server/hooks';
import type { PageServerLoad } from './$types';

const PAGE = 100;
const BeforeSchema = v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)));

/** The audit log, newest first, a hundred entries a page (`?before=<id>` pages back). */
export const load: PageServerLoad = async ({ locals, url, setHeaders }) => {
	requireAdmin(locals, url);
	setHeaders({ 'x-robots-tag': 'noindex' });
	const before = v.safeParse(BeforeSchema, url.searchParams.get('before') ?? undefined);
	const entries = await listAudit((await getApp()).control.db, { limit: PAGE + 1, before: before.success ? before.output : undefined });
	const more = entries.length > PAGE;
	const shown = entries.slice(0, PAGE);
	return { entries: shown, older: more ? (shown.at(-1)?.id ?? null) : null };
};
