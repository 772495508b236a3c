/**
 * Importing a file as a new draft preset: a Kantera preset file, a Character Card V2/V3 as JSON, or
 * a card PNG (the card base64 in a `ccv3` or `chara` tEXt chunk; `ccv3` wins when both are there).
 * Everything is checked before anything is stored: a file that is too large, not one of these, or
 * broken (bad base64, not JSON, a wrong spec) is refused with a message and creates nothing.
 */
import * as v from 'valibot';
import type { PresetForm } from '../../presets/form';
import { cardToForm, parseCard } from './cards';
import { PresetError } from './errors';
import { isPresetFile, presetFileToForm } from './exchange';
import { isPng, pngTextChunks } from './png';

/** The largest file accepted: card PNGs carry a portrait, so a few megabytes. */
export const MAX_IMPORT_BYTES = 8 * 1024 * 1024;
/** Card chunks in order of preference (V3 first, as its spec asks). */
const CARD_CHUNKS = ['ccv3', 'chara'] as const;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The file a form or an API request uploaded: present, not empty, not too large. */
export const ImportFileSchema = v.pipe(
	v.instance(File, 'Choose a file to import.'),
	v.check((f) => f.size > 0, 'The file is empty.'),
	v.check((f) => f.size <= MAX_IMPORT_BYTES, `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB, the most an import takes.`)
);

function utf8(bytes: Uint8Array, what: string): string {
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
	} catch {
		throw new PresetError('bad_import', `${what} is not UTF-8 text.`);
	}
}

function json(text: string, what: string): unknown {
	try {
		const value: unknown = JSON.parse(text);
		return value;
	} catch {
		throw new PresetError('bad_import', `${what} is not valid JSON.`);
	}
}

function decodeBase64(text: string, chunk: string): Uint8Array {
	const compact = text.replace(/\s+/g, '');
	if (compact === '' || compact.length % 4 !== 0 || !BASE64.test(compact)) {
		throw new PresetError('bad_import', `The card in the PNG's "${chunk}" chunk is not valid base64.`);
	}
	return Buffer.from(compact, 'base64');
}

function cardFromPng(bytes: Uint8Array): PresetForm {
	const chunks = pngTextChunks(bytes);
	const chunk = CARD_CHUNKS.find((name) => chunks.has(name));
	const text = chunk === undefined ? undefined : chunks.get(chunk);
	if (chunk === undefined || text === undefined)
		throw new PresetError('bad_import', 'This PNG holds no character card (no "ccv3" or "chara" text chunk).');
	const card = json(utf8(decodeBase64(text, chunk), `The card in the "${chunk}" chunk`), `The card in the "${chunk}" chunk`);
	return cardToForm(parseCard(card));
}

/** A file's bytes as a draft preset's form; PresetError('bad_import') for anything else. */
export function importToForm(bytes: Uint8Array): PresetForm {
	if (bytes.byteLength > MAX_IMPORT_BYTES)
		throw new PresetError('bad_import', `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB, the most an import takes.`);
	if (isPng(bytes)) return cardFromPng(bytes);
	const data = json(utf8(bytes, 'The file'), 'The file');
	if (isPresetFile(data)) return presetFileToForm(data);
	if (typeof data === 'object' && data !== null && !Array.isArray(data) && ('spec' in data || 'data' in data || 'first_mes' in data))
		return cardToForm(parseCard(data));
	throw new PresetError('bad_import', 'This file is not a Kantera preset file, a Character Card V2/V3 (JSON) or a card PNG.');
}
