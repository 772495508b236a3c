/**
 * Importing a file as a new draft preset: a Kantera preset file, a Character Card V2/V3 as JSON, or
 * a card PNG (the card base64 in a `ccv3` or `chara` tEXt chunk; `ccv3` wins when both are there).
 * Everything is checked before anything is stored: a file that is too large, not one of these, or
 * broken (bad base64, not JSON, a wrong spec) is refused with a message and creates nothing.
 */
import * as v from 'valibot';
import type { PresetForm } from '../../presets/form';
import { cardToForm, parseCard } from './cards';
import { importError } from './errors';
import { said } from '../validation';
import { isPresetFile, presetFileToForm } from './exchange';
import { isPng, pngTextChunks } from './png';
import { MAX_PRESET_DEPTH, tooDeepAt } from '../../presets/depth';

/** The largest file accepted: card PNGs carry a portrait, so a few megabytes. */
export const MAX_IMPORT_BYTES = 8 * 1024 * 1024;
export const MAX_IMPORT_MB = MAX_IMPORT_BYTES / 1024 / 1024;
/** Card chunks in order of preference (V3 first, as its spec asks). */
const CARD_CHUNKS = ['ccv3', 'chara'] as const;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The file a form or an API request uploaded: present, not empty, not too large. */
export const ImportFileSchema = v.pipe(
	v.instance(File, said('import.error.chooseFile')),
	v.check((f) => f.size > 0, said('import.error.empty')),
	v.check((f) => f.size <= MAX_IMPORT_BYTES, said('import.error.tooLarge', { mb: MAX_IMPORT_MB }))
);

/** Where a text came from: the whole file, or the card chunk of a PNG (its keyword). */
type Source = { chunk: string } | 'file';

function utf8(bytes: Uint8Array, source: Source): string {
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
	} catch {
		throw source === 'file' ? importError('import.error.notUtf8') : importError('import.error.chunkNotUtf8', source);
	}
}

function json(text: string, source: Source): unknown {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		throw source === 'file' ? importError('import.error.notJson') : importError('import.error.chunkNotJson', source);
	}
	// Reading it (a card's spec quoted back, a state shown as text) walks it recursively: refused first.
	const deep = tooDeepAt(value, MAX_PRESET_DEPTH);
	if (deep !== undefined) throw importError('import.error.tooDeep', { max: MAX_PRESET_DEPTH, path: deep });
	return value;
}

function decodeBase64(text: string, chunk: string): Uint8Array {
	const compact = text.replace(/\s+/g, '');
	if (compact === '' || compact.length % 4 !== 0 || !BASE64.test(compact)) {
		throw importError('import.error.chunkBase64', { chunk });
	}
	return Buffer.from(compact, 'base64');
}

function cardFromPng(bytes: Uint8Array): PresetForm {
	const chunks = pngTextChunks(bytes);
	const chunk = CARD_CHUNKS.find((name) => chunks.has(name));
	const text = chunk === undefined ? undefined : chunks.get(chunk);
	if (chunk === undefined || text === undefined) throw importError('import.error.noCard');
	const card = json(utf8(decodeBase64(text, chunk), { chunk }), { chunk });
	return cardToForm(parseCard(card));
}

/** A file's bytes as a draft preset's form; PresetError('bad_import') for anything else. */
export function importToForm(bytes: Uint8Array): PresetForm {
	if (bytes.byteLength > MAX_IMPORT_BYTES) throw importError('import.error.tooLarge', { mb: MAX_IMPORT_MB });
	if (isPng(bytes)) return cardFromPng(bytes);
	const data = json(utf8(bytes, 'file'), 'file');
	if (isPresetFile(data)) return presetFileToForm(data);
	if (typeof data === 'object' && data !== null && !Array.isArray(data) && ('spec' in data || 'data' in data || 'first_mes' in data))
		return cardToForm(parseCard(data));
	throw importError('import.error.unknownFormat');
}
