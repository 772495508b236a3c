import { apiEndpoint, jsonResponse, postChooseAlternative } from '$lib/server/api';
import type { RequestHandler } from './$types';

/** Puts the alternative on screen: every record switches to the ones that reply left. 200 with the replies. */
export const POST = apiEndpoint(async ({ app, user, params }) =>
	jsonResponse(await postChooseAlternative(app, user, params))
) satisfies RequestHandler;
