/**
 * Reads the text chunks of a PNG file, enough to find a character card in it (`chara` for V2,
 * `ccv3` for V3: base64 of the card's JSON in a tEXt chunk). Every length is checked against the
 * bytes that are there and every chunk's CRC is verified, so a damaged or truncated file is refused
 * with a message instead of being half read. Image data is skipped, never decoded.
 */
import { crc32 } from 'node:zlib';
import { importError } from './errors';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Chunks read before giving up: a real card PNG has a handful; this bounds a hostile file's work. */
const MAX_CHUNKS = 10_000;
const CHUNK_HEADER = 8;
const CRC_BYTES = 4;

export function isPng(bytes: Uint8Array): boolean {
	return bytes.length >= SIGNATURE.length && SIGNATURE.every((b, i) => bytes[i] === b);
}

/** tEXt chunks by keyword (the first of each keyword wins), text decoded as Latin-1 as the PNG spec says. */
export function pngTextChunks(bytes: Uint8Array): Map<string, string> {
	if (!isPng(bytes)) throw importError('import.error.notPng');
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const latin1 = new TextDecoder('latin1');
	const texts = new Map<string, string>();
	let offset = SIGNATURE.length;
	for (let n = 0; n < MAX_CHUNKS; n++) {
		if (offset + CHUNK_HEADER > bytes.length) throw importError('import.error.pngEnds');
		const length = view.getUint32(offset);
		const type = latin1.decode(bytes.subarray(offset + 4, offset + 8));
		const dataStart = offset + CHUNK_HEADER;
		const dataEnd = dataStart + length;
		if (!/^[A-Za-z]{4}$/.test(type)) throw importError('import.error.pngChunkType');
		if (dataEnd + CRC_BYTES > bytes.length) throw importError('import.error.pngChunkShort', { type });
		const expected = view.getUint32(dataEnd);
		if (crc32(bytes.subarray(offset + 4, dataEnd)) !== expected) throw importError('import.error.pngChecksum', { type });
		if (type === 'tEXt') {
			const data = bytes.subarray(dataStart, dataEnd);
			const nul = data.indexOf(0);
			if (nul > 0) {
				const keyword = latin1.decode(data.subarray(0, nul));
				if (!texts.has(keyword)) texts.set(keyword, latin1.decode(data.subarray(nul + 1)));
			}
		}
		if (type === 'IEND') return texts;
		offset = dataEnd + CRC_BYTES;
	}
	throw importError('import.error.pngTooManyChunks');
}
