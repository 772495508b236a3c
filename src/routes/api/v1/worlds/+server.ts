import * as v from 'valibot';
import { apiEndpoint, jsonResponse, badRequest } from '$lib/server/api';
import { LanguageSchema } from '$lib/types/settings';
import { listWorlds } from '$lib/server/worlds';
import type { RequestHandler } from './$types';

/** The official worlds a new session can start from: `?language=ja|en` (default en). */
export const GET = apiEndpoint(async ({ url }) => {
	const language = v.safeParse(LanguageSchema, url.searchParams.get('language') ?? 'en');
	if (!language.success) throw badRequest(language.issues[0].message, 'INVALID_LANGUAGE');
	return jsonResponse({ worlds: listWorlds(language.output) });
}) satisfies RequestHandler;
