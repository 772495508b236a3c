import { apiEndpoint, deleteArtResponse, putArtResponse } from '$lib/server/api';
import type { RequestHandler } from './$types';

/** An NPC's sprite in one expression (`default` is the plain sprite): PUT the image as the body, DELETE to remove it. Author only. */
const target = (p: Partial<Record<string, string>>) => ({ kind: 'npc', name: p.npc, expression: p.expression });
export const PUT = apiEndpoint(putArtResponse(target)) satisfies RequestHandler;
export const DELETE = apiEndpoint(deleteArtResponse(target)) satisfies RequestHandler;
