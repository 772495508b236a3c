import { apiEndpoint, jsonResponse, membersFor } from '$lib/server/api';
import type { RequestHandler } from './$types';

/** Who sits at the table (the owner first), the turn order and whose turn it is. */
export const GET = apiEndpoint(async ({ app, user, params }) =>
	jsonResponse(await membersFor(app, user, params.id))
) satisfies RequestHandler;
