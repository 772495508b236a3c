import * as v from 'valibot';
import { apiEndpoint, badRequest } from '$lib/server/api';
import { downloadResponse, exportPresetAs, ExportFormatSchema } from '$lib/server/presets';
import type { RequestHandler } from './$types';

/** The preset's saved version as a file: `?format=kantera` (default), `ccv3` (JSON), `png` or `charx`. */
export const GET = apiEndpoint(async ({ app, user, params, url }) => {
	const format = v.safeParse(ExportFormatSchema, url.searchParams.get('format') ?? 'kantera');
	if (!format.success) throw badRequest(format.issues[0].message);
	return downloadResponse(await exportPresetAs(app, user, params.id, format.output));
}) satisfies RequestHandler;
