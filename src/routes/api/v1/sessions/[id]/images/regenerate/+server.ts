import { apiEndpoint, jsonResponse, ownedSession, readJson } from '$lib/server/api';
import { checkRegeneration } from '$lib/server/tiers';
import { regenerateImage, RegenerateRequestSchema } from '$lib/server/images';
import type { RequestHandler } from './$types';

/**
 * Regenerates an NPC's sprite or a scene's background by hand: `{target: "npc"|"scene", name}` →
 * 202 `{orderId, status}`; the new image arrives as an `image.ready` event. Metered by the budget
 * guard: 429 when the session's or the user's budget is spent. 403 REGENERATION_OFF on the free tier.
 */
export const POST = apiEndpoint(async ({ app, user, params, request }) => {
	const body = await readJson(request, RegenerateRequestSchema);
	// The session is checked first, so another user's session stays a 404 whatever the tier.
	await ownedSession(app, user, params.id);
	checkRegeneration(user.tier);
	const job = await regenerateImage(app, params.id, user.id, body);
	return jsonResponse({ orderId: job.id, status: job.status }, 202);
}) satisfies RequestHandler;
