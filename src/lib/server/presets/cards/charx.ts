/**
 * CHARX files (CCv3's zip: `card.json` at the root, assets under `assets/…`, referred to as
 * `embeded://path`), read under hard limits and written for export. fflate reads the zip; before it
 * inflates anything, every entry's name and declared sizes are checked here:
 * - at most MAX_ENTRIES entries, each at most MAX_ENTRY_BYTES and all together MAX_TOTAL_BYTES once
 *   inflated, none inflating more than MAX_RATIO times its stored size (a zip bomb's signature);
 * - no name that climbs out of the archive (`..`, an absolute path, a drive, a backslash, control
 *   characters), and no archive inside the archive (by name: .zip, .charx, .rar, .7z, .tar, .gz…).
 * Only `card.json` and the pictures (.png, .jpg, .jpeg, .webp: the assets that become art) are
 * inflated, each into a buffer of its declared size, so a header that lies about the size cannot make
 * it larger (the text is then cut short and fails as JSON; a picture, as an image). Any breach refuses the
 * whole file: nothing is created.
 */
import { strToU8, unzipSync, zipSync, type UnzipFileInfo } from 'fflate';
import { importError, isPresetError } from '../errors';
import { hasControlCharacter } from '../../validation';

export const CHARX_LIMITS = {
	entries: 256,
	entryBytes: 16 * 1024 * 1024,
	totalBytes: 64 * 1024 * 1024,
	ratio: 100
} as const;

const CARD_JSON = 'card.json';
const NESTED = /\.(zip|charx|jar|rar|7z|tar|gz|tgz|bz2|xz|zst)$/i;
const PICTURE = /\.(png|jpe?g|webp)$/i;
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const EMPTY_ZIP_MAGIC = [0x50, 0x4b, 0x05, 0x06];

export function isZip(bytes: Uint8Array): boolean {
	return [ZIP_MAGIC, EMPTY_ZIP_MAGIC].some((magic) => magic.every((b, i) => bytes[i] === b));
}

/** Why a name may not be in a CHARX, or null when it may. */
function badName(name: string): string | null {
	if (name === '' || hasControlCharacter(name) || /[\t\n\r\\]/.test(name) || name.startsWith('/') || /^[A-Za-z]:/.test(name))
		return 'unsafe';
	if (name.split('/').some((part) => part === '..' || part === '.')) return 'unsafe';
	if (NESTED.test(name)) return 'nested';
	return null;
}

export interface CharxContents {
	/** The text of `card.json`. */
	readonly card: string;
	/** Every other file's path (what `embeded://` URIs may name). */
	readonly assets: string[];
	/** The pictures' bytes by path. */
	readonly pictures: ReadonlyMap<string, Uint8Array>;
}

/** The card of a CHARX file; PresetError('bad_import') for a breach of the limits or a broken zip. */
export function readCharx(bytes: Uint8Array): CharxContents {
	let count = 0;
	let total = 0;
	const assets: string[] = [];
	const check = (file: UnzipFileInfo): boolean => {
		count++;
		if (count > CHARX_LIMITS.entries) throw importError('import.error.charxEntries', { max: CHARX_LIMITS.entries });
		const why = badName(file.name);
		if (why === 'unsafe') throw importError('import.error.charxPath', { name: file.name.slice(0, 80) });
		if (why === 'nested') throw importError('import.error.charxNested', { name: file.name.slice(0, 80) });
		if (file.originalSize > CHARX_LIMITS.entryBytes)
			throw importError('import.error.charxTooLarge', { mb: CHARX_LIMITS.entryBytes / 1024 / 1024 });
		total += file.originalSize;
		if (total > CHARX_LIMITS.totalBytes) throw importError('import.error.charxTooLarge', { mb: CHARX_LIMITS.totalBytes / 1024 / 1024 });
		if (file.originalSize > Math.max(file.size, 1) * CHARX_LIMITS.ratio)
			throw importError('import.error.charxRatio', { ratio: CHARX_LIMITS.ratio });
		if (file.name.endsWith('/')) return false;
		if (file.name !== CARD_JSON) {
			assets.push(file.name);
			return PICTURE.test(file.name);
		}
		return true;
	};
	let files: Record<string, Uint8Array>;
	try {
		files = unzipSync(bytes, { filter: check });
	} catch (err) {
		if (isPresetError(err)) throw err;
		throw importError('import.error.charxBroken');
	}
	const card = files[CARD_JSON];
	if (!card) throw importError('import.error.charxNoCard');
	if (isZip(card)) throw importError('import.error.charxNested', { name: CARD_JSON });
	try {
		const pictures = new Map(Object.entries(files).filter(([name]) => name !== CARD_JSON));
		return { card: new TextDecoder('utf-8', { fatal: true }).decode(card), assets, pictures };
	} catch {
		throw importError('import.error.chunkNotUtf8', { chunk: CARD_JSON });
	}
}

/** A CHARX of a card and its files (path → bytes), compressed. */
export function writeCharx(card: unknown, files: Readonly<Record<string, Uint8Array>>): Uint8Array {
	return zipSync({ [CARD_JSON]: strToU8(JSON.stringify(card)), ...files }, { level: 6 });
}
