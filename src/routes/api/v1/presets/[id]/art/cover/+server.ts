import { apiEndpoint, deleteArtResponse, putArtResponse } from '$lib/server/api';
import type { RequestHandler } from './$types';

/** The preset's cover: PUT the image as the body, DELETE to remove it. Author only. */
const target = () => ({ kind: 'cover' });
export const PUT = apiEndpoint(putArtResponse(target)) satisfies RequestHandler;
export const DELETE = apiEndpoint(deleteArtResponse(target)) satisfies RequestHandler;
