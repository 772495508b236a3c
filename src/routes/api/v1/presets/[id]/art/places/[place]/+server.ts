import { apiEndpoint, deleteArtResponse, putArtResponse } from '$lib/server/api';
import type { RequestHandler } from './$types';

/** A place's background (by the scene's name): PUT the image as the body, DELETE to remove it. Author only. */
const target = (p: Partial<Record<string, string>>) => ({ kind: 'place', name: p.place });
export const PUT = apiEndpoint(putArtResponse(target)) satisfies RequestHandler;
export const DELETE = apiEndpoint(deleteArtResponse(target)) satisfies RequestHandler;
