/**
 * Importing a file as a new draft preset: a Kantera preset file, a Character Card V1/V2/V3 as JSON,
 * a card PNG (the card base64 in a `ccv3` or `chara` tEXt chunk; `ccv3` wins when both are there), a
 * CHARX (zip with `card.json`), or a lorebook alone (SillyTavern World Info, `lorebook_v3`). Every
 * import answers with a report of what went where and what was dropped.
 * Everything is checked before anything is stored: a file that is too large, nested too deep, not
 * one of these, or broken (bad base64, not JSON, a wrong spec, a zip over its limits) is refused
 * with a message and creates nothing.
 */
import * as v from 'valibot';
import type { PresetForm } from '../../presets/form';
import type { ImportReport } from '../../types/presets';
import { isJsonObject, type JsonValue } from '../records';
import { importError } from './errors';
import { said } from '../validation';
import { isPresetFile, presetFileToForm } from './exchange';
import { soundsOfFile, type ImportedSound } from './audio-exchange';
import { isPng, pngTextChunks } from './png';
import { MAX_PRESET_DEPTH, tooDeepAt } from '../../presets/depth';
import { boundedForm, fromEmbedded } from './cards/embedded';
import { isZip, readCharx } from './cards/charx';
import { lorebookToPreset } from './cards/lorebook';
import { readExchangeFile, type ExchangeFile } from './cards/spec';
import { cardToPreset } from './cards/to-preset';
import { artOfCard, type CardPictures, type ImportedArt } from './cards/assets';

/** The largest file accepted: card PNGs carry a portrait and CHARX files their assets, so a few megabytes. */
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

export interface ImportedFile {
	readonly form: PresetForm;
	readonly report: ImportReport;
	/** A card's pictures as the preset's art (stored with the new draft). */
	readonly art?: readonly ImportedArt[];
	/** A preset file's sound (stored with the new draft). */
	readonly sounds?: readonly ImportedSound[];
}

/** The card's pictures as art, their rows in the report in place of the generic "picture" and "assets" rows. */
function withArt(imported: ImportedFile, pictures: Omit<CardPictures, 'npc' | 'openingScene'>): ImportedFile {
	const { form, report } = imported;
	const found = artOfCard({ ...pictures, npc: form.npcs[0]?.name.trim() ?? '', openingScene: form.opening.scene.name.trim() });
	const generic = (row: ImportReport['dropped'][number]) =>
		(row.code === 'picture' && row.field === 'PNG image') || (row.code === 'assets' && /(^|\.)assets$/.test(row.field));
	return {
		form,
		art: found.art,
		report: {
			...report,
			mapped: [...report.mapped, ...found.mapped],
			dropped: [...report.dropped.filter((row) => !generic(row)), ...found.dropped]
		}
	};
}

/** Where a text came from: the whole file, or the card chunk of a PNG (its keyword). */
type Source = { chunk: string } | 'file';

function utf8(bytes: Uint8Array, source: Source): string {
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
	} catch {
		throw source === 'file' ? importError('import.error.notUtf8') : importError('import.error.chunkNotUtf8', source);
	}
}

function json(text: string, source: Source): JsonValue {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		throw source === 'file' ? importError('import.error.notJson') : importError('import.error.chunkNotJson', source);
	}
	// Reading it (a card's spec quoted back, a state shown as text) walks it recursively: refused first.
	const deep = tooDeepAt(value, MAX_PRESET_DEPTH);
	if (deep !== undefined) throw importError('import.error.tooDeep', { max: MAX_PRESET_DEPTH, path: deep });
	return value as JsonValue;
}

function decodeBase64(text: string, chunk: string): Uint8Array {
	const compact = text.replace(/\s+/g, '');
	if (compact === '' || compact.length % 4 !== 0 || !BASE64.test(compact)) {
		throw importError('import.error.chunkBase64', { chunk });
	}
	return Buffer.from(compact, 'base64');
}

function cardOf(file: ExchangeFile | null, source: Source): Extract<ExchangeFile, { kind: 'card' }> {
	if (file?.kind === 'card') return file;
	throw source === 'file' ? importError('import.error.unknownFormat') : importError('import.error.chunkNotCard', source);
}

function cardFromPng(bytes: Uint8Array): ImportedFile {
	const chunks = pngTextChunks(bytes);
	const chunk = CARD_CHUNKS.find((name) => chunks.has(name));
	const text = chunk === undefined ? undefined : chunks.get(chunk);
	if (chunk === undefined || text === undefined) throw importError('import.error.noCard');
	const value = json(utf8(decodeBase64(text, chunk), { chunk }), { chunk });
	if (!isJsonObject(value)) throw importError('import.error.cardNotObject');
	const { card } = cardOf(readExchangeFile(value), { chunk });
	return withArt(fromEmbedded(card) ?? cardToPreset(card, { picture: true }), { assets: card.raw.assets, picture: bytes });
}

function fromJson(value: JsonValue, name: string, source: Source): ImportedFile {
	if (isPresetFile(value))
		return {
			form: presetFileToForm(value),
			sounds: soundsOfFile(value),
			report: { mapped: [{ from: 'preset', to: 'preset' }], dropped: [], defaults: [] }
		};
	if (!isJsonObject(value)) throw importError('import.error.unknownFormat');
	const file = readExchangeFile(value);
	if (!file) throw importError('import.error.unknownFormat');
	if (file.kind === 'lorebook') return lorebookToPreset(file, name);
	const { card } = cardOf(file, source);
	return withArt(fromEmbedded(card) ?? cardToPreset(card, { picture: false }), { assets: card.raw.assets });
}

function fromCharx(bytes: Uint8Array): ImportedFile {
	const charx = readCharx(bytes);
	const value = json(charx.card, { chunk: 'card.json' });
	if (!isJsonObject(value)) throw importError('import.error.cardNotObject');
	const { card } = cardOf(readExchangeFile(value), { chunk: 'card.json' });
	const imported = withArt(fromEmbedded(card) ?? cardToPreset(card, { picture: false }), {
		assets: card.raw.assets,
		files: charx.pictures
	});
	// Files no asset names are reported too: nothing in the archive goes unmentioned.
	const named = new Set(imported.report.mapped.map((row) => row.from));
	const used = new Set(
		(Array.isArray(card.raw.assets) ? card.raw.assets : []).flatMap((a, i) =>
			isJsonObject(a ?? null) && typeof (a as { uri?: unknown }).uri === 'string' && named.has(`data.assets.${i}`)
				? [String((a as { uri: string }).uri).replace(/^embeded:\/\//, '')]
				: []
		)
	);
	const unused = charx.assets
		.filter((path) => !used.has(path))
		.map((path) => ({ field: path, code: 'assets' as const, why: 'no asset of the card names it as art' }));
	return { ...imported, report: { ...imported.report, dropped: [...imported.report.dropped, ...unused].slice(0, 2_000) } };
}

/** A file name without its folder and extensions, as a lorebook's title (SillyTavern names World Info by its file). */
export function titleOfFileName(fileName: string | undefined): string {
	return (fileName ?? '')
		.replace(/^.*[\\/]/, '')
		.replace(/(\.[A-Za-z0-9]{1,8})+$/, '')
		.trim();
}

/** A file's bytes as a draft preset's form and the import's report; PresetError('bad_import') for anything else. */
export function importFile(bytes: Uint8Array, fileName?: string): ImportedFile {
	if (bytes.byteLength > MAX_IMPORT_BYTES) throw importError('import.error.tooLarge', { mb: MAX_IMPORT_MB });
	const imported = isPng(bytes)
		? cardFromPng(bytes)
		: isZip(bytes)
			? fromCharx(bytes)
			: fromJson(json(utf8(bytes, 'file'), 'file'), titleOfFileName(fileName), 'file');
	return { form: boundedForm(imported.form), report: imported.report, art: imported.art ?? [], sounds: imported.sounds ?? [] };
}

/** A file's bytes as a draft preset's form (the report aside). */
export function importToForm(bytes: Uint8Array): PresetForm {
	return importFile(bytes).form;
}

/** A lorebook file's entries, for a merge into a preset; PresetError('bad_import') for a file that is not a lorebook. */
export function readLorebookFile(bytes: Uint8Array): Extract<ExchangeFile, { kind: 'lorebook' }> {
	if (bytes.byteLength > MAX_IMPORT_BYTES) throw importError('import.error.tooLarge', { mb: MAX_IMPORT_MB });
	const value = json(utf8(bytes, 'file'), 'file');
	const file = isJsonObject(value) ? readExchangeFile(value) : null;
	if (file?.kind === 'lorebook') return file;
	if (file?.kind === 'card' && file.card.lore.length > 0)
		return { kind: 'lorebook', spec: 'character_book', name: file.card.bookName, entries: file.card.lore, top: {} };
	throw importError('import.error.notLorebook');
}
