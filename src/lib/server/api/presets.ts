/**
 * Request bodies of the preset and gallery endpoints, checked with valibot where they enter. The
 * preset content itself is checked by the presets module against the world schema (every problem
 * reported on its field); here only the envelope is.
 */
import * as v from 'valibot';
import { PresetVisibilitySchema } from '../../types/presets';
import { ImportFileSchema, importError, MAX_IMPORT_BYTES, MAX_IMPORT_MB, PresetError, ReportReasonSchema } from '../presets';
import { ApiError, badRequest } from './errors';

/** The preset's fields without `id` (the server gives the id). */
export const PresetBody = v.pipe(
	v.record(v.string(), v.unknown()),
	v.check((body) => !Object.hasOwn(body, 'id'), 'id is given by the server: leave it out of the body')
);

export const VisibilityBody = v.strictObject({
	visibility: PresetVisibilitySchema
});

export const ReportBody = v.strictObject({ reason: ReportReasonSchema });

const RAW_TYPES = /^(application\/json|image\/png|application\/zip|application\/octet-stream)\s*(;|$)/i;
const MULTIPART = /^multipart\/form-data\s*(;|$)/i;

/**
 * The file of an import request: a multipart form with a `file` field (what a browser sends), or the
 * file itself as the body with its type (application/json, image/png, application/zip, application/octet-stream),
 * which scripts can send without the Origin header SvelteKit requires of form posts. The file's name
 * (a multipart upload's, or `?name=`) titles a lorebook imported alone, as SillyTavern names World Info.
 */
export async function readImportFile(request: Request): Promise<{ bytes: Uint8Array; name: string | undefined }> {
	const type = request.headers.get('content-type') ?? '';
	if (MULTIPART.test(type)) {
		let data: FormData;
		try {
			data = await request.formData();
		} catch {
			throw badRequest('The multipart body could not be read.', 'INVALID_BODY');
		}
		const file = v.safeParse(ImportFileSchema, data.get('file'));
		if (!file.success) throw new PresetError('bad_import', file.issues[0].message);
		return { bytes: new Uint8Array(await file.output.arrayBuffer()), name: file.output.name };
	}
	if (RAW_TYPES.test(type)) {
		const bytes = new Uint8Array(await request.arrayBuffer());
		if (bytes.byteLength === 0) throw importError('import.error.empty');
		if (bytes.byteLength > MAX_IMPORT_BYTES) throw importError('import.error.tooLarge', { mb: MAX_IMPORT_MB });
		return { bytes, name: new URL(request.url).searchParams.get('name') ?? undefined };
	}
	throw new ApiError(
		415,
		'UNSUPPORTED_MEDIA_TYPE',
		'Send the file as multipart/form-data (field "file"), or as the body with content-type ' +
			'application/json, image/png, application/zip or application/octet-stream.'
	);
}
