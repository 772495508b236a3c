import { getApp } from '$lib/server/app';
import { jsonResponse, llmStatus } from '$lib/server/api';
import type { StatusDto } from '$lib/types/api';
import type { RequestHandler } from './$types';

/**
 * Whether this server can play turns, for anyone who asks (a setup script, the sign-in page): when
 * no LLM is configured it says so and what the operator must set. Holds no user data and no secrets.
 */
export const GET = (async () => {
	const app = await getApp();
	const body: StatusDto = { llm: llmStatus(app.config) };
	return jsonResponse(body);
}) satisfies RequestHandler;
