import { apiEndpoint, deleteAudioResponse, putAudioResponse } from '$lib/server/api';
import type { RequestHandler } from './$types';

/** A sound by kind (music, ambience, effect) and name: PUT the OGG, MP3 or M4A file as the body, DELETE to remove it. Author only. */
const target = (p: Partial<Record<string, string>>) => ({ kind: p.kind, name: p.name });
export const PUT = apiEndpoint(putAudioResponse(target)) satisfies RequestHandler;
export const DELETE = apiEndpoint(deleteAudioResponse(target)) satisfies RequestHandler;
