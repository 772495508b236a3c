/**
 * The art and sound endpoints: PUT stores the body as the image of the target the path names (200 with the
 * stored image), DELETE removes it (200, or 404 when there was none). The body is the image itself,
 * whatever its Content-Type says: the format is told from its bytes (KANTERA_MAX_BODY_BYTES bounds it
 * before it is read, the image's own limits after).
 */
import { deleteArt, deleteAudio, putArt, putAudio } from '../presets';
import type { ApiContext } from './endpoint';
import { notFound } from './errors';
import { jsonResponse } from './respond';

type Params = Partial<Record<string, string>>;

export function putArtResponse<P extends Params>(target: (params: P) => unknown) {
	return async ({ app, user, params, request }: ApiContext<P>) =>
		jsonResponse(await putArt(app, user, params.id, target(params), new Uint8Array(await request.arrayBuffer())));
}

export function deleteArtResponse<P extends Params>(target: (params: P) => unknown) {
	return async ({ app, user, params }: ApiContext<P>) => {
		if (!(await deleteArt(app, user, params.id, target(params)))) throw notFound('There is no such image.');
		return jsonResponse({ deleted: true });
	};
}

/** The sound endpoints, the same way: PUT the file as the body (told from its bytes), DELETE to remove it. */
export function putAudioResponse<P extends Params>(target: (params: P) => unknown) {
	return async ({ app, user, params, request }: ApiContext<P>) =>
		jsonResponse(await putAudio(app, user, params.id, target(params), new Uint8Array(await request.arrayBuffer())));
}

export function deleteAudioResponse<P extends Params>(target: (params: P) => unknown) {
	return async ({ app, user, params }: ApiContext<P>) => {
		if (!(await deleteAudio(app, user, params.id, target(params)))) throw notFound('There is no such sound.');
		return jsonResponse({ deleted: true });
	};
}
