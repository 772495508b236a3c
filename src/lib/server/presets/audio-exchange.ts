/**
 * A preset's sound in its Kantera preset file: beside `preset`, an optional `sounds` list of
 * `{ kind, name, data }` with the file's bytes in base64. On import each is checked as an upload is
 * (kind and name, then the format from its bytes), so a file cannot bring in what the API would refuse;
 * a bad one refuses the import with a message naming it.
 */
import * as v from 'valibot';
import { AudioUploadError, checkUploadedAudio, type StoredImage } from '../images';
import { PRESET_AUDIO_KINDS } from '../../types/presets';
import { AudioTargetSchema, type AudioFile, type AudioTarget } from './audio';
import { importError } from './errors';

export interface FileSound {
	kind: AudioTarget['kind'];
	name: string;
	/** The file's bytes, base64. */
	data: string;
}

export interface ImportedSound {
	readonly target: AudioTarget;
	readonly file: StoredImage;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const FileSoundsSchema = v.optional(v.array(v.object({ kind: v.picklist(PRESET_AUDIO_KINDS), name: v.string(), data: v.string() })), []);

/** The preset's sound as the file's `sounds`. */
export function fileSounds(files: readonly AudioFile[]): FileSound[] {
	return files.map((f) => ({ kind: f.kind, name: f.name, data: Buffer.from(f.data.bytes).toString('base64') }));
}

/** A preset file's `sounds`, each checked; PresetError('bad_import') naming the first that is not right. */
export function soundsOfFile(json: unknown): ImportedSound[] {
	const listed = v.safeParse(FileSoundsSchema, typeof json === 'object' && json !== null && 'sounds' in json ? json.sounds : undefined);
	if (!listed.success) throw importError('import.error.sounds', { detail: listed.issues[0].message });
	return listed.output.map((sound) => {
		const target = v.safeParse(AudioTargetSchema, sound);
		if (!target.success) throw importError('import.error.sound', { name: sound.name, detail: target.issues[0].message });
		if (!BASE64.test(sound.data)) throw importError('import.error.sound', { name: sound.name, detail: 'its data is not base64' });
		const bytes = new Uint8Array(Buffer.from(sound.data, 'base64'));
		try {
			return { target: target.output, file: { bytes, contentType: checkUploadedAudio(bytes) } };
		} catch (err) {
			if (err instanceof AudioUploadError) throw importError('import.error.sound', { name: sound.name, detail: err.message });
			throw err;
		}
	});
}
