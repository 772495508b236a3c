/**
 * Character-card PNGs for tests, written byte by byte from the PNG spec: a 1×1 RGBA image with tEXt
 * chunks (`chara` for a V2 card, `ccv3` for a V3 one, the card as base64 of its JSON).
 */
import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** One chunk with its CRC; `length` overrides the declared length (a hostile file's). */
export function pngChunk(type: string, data: Uint8Array, length = data.length): Buffer {
	const out = Buffer.alloc(12 + data.length);
	out.writeUInt32BE(length, 0);
	out.write(type, 4, 'latin1');
	out.set(data, 8);
	out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
	return out;
}

export function textChunk(keyword: string, text: string): Buffer {
	return pngChunk('tEXt', Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0]), Buffer.from(text, 'latin1')]));
}

export const base64Json = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');

/** A valid PNG holding these tEXt chunks (keyword → text) before the image data. */
export function cardPng(texts: Record<string, string>): Uint8Array<ArrayBuffer> {
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(1, 0);
	ihdr.writeUInt32BE(1, 4);
	ihdr.set([8, 6, 0, 0, 0], 8);
	const pixel = deflateSync(Buffer.from([0, 200, 120, 40, 255]));
	return new Uint8Array(
		Buffer.concat([
			Buffer.from(SIGNATURE),
			pngChunk('IHDR', ihdr),
			...Object.entries(texts).map(([k, t]) => textChunk(k, t)),
			pngChunk('IDAT', pixel),
			pngChunk('IEND', new Uint8Array(0))
		])
	);
}
