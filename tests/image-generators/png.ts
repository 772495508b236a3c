/** Real PNG files for the fake generators: the size asked for, with or without alpha, with the text chunks generators write. */
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Uint8Array): Buffer {
	const head = Buffer.alloc(8);
	head.writeUInt32BE(data.byteLength, 0);
	head.write(type, 4, 'ascii');
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
	return Buffer.concat([head, data, crc]);
}

export interface PngSpec {
	width: number;
	height: number;
	/** RGBA (colour type 6) with a transparent border, else RGB (colour type 2). */
	alpha?: boolean;
	/** tEXt chunks, as ComfyUI (prompt, workflow) and AUTOMATIC1111 (parameters) write them. */
	text?: Record<string, string>;
}

export function makePng({ width, height, alpha = false, text = {} }: PngSpec): Uint8Array {
	const channels = alpha ? 4 : 3;
	const row = 1 + width * channels;
	const raw = Buffer.alloc(row * height);
	for (let y = 0; y < height; y++)
		for (let x = 0; x < width; x++) {
			const at = y * row + 1 + x * channels;
			raw[at] = 200;
			raw[at + 1] = 120;
			raw[at + 2] = 40;
			// A figure in the middle, nothing around it: what a background remover leaves.
			if (alpha) raw[at + 3] = x > width / 4 && x < (3 * width) / 4 ? 255 : 0;
		}
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(width, 0);
	ihdr.writeUInt32BE(height, 4);
	ihdr[8] = 8;
	ihdr[9] = alpha ? 6 : 2;
	const texts = Object.entries(text).map(([key, value]) => chunk('tEXt', Buffer.from(`${key}\0${value}`, 'latin1')));
	return new Uint8Array(
		Buffer.concat([
			Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
			chunk('IHDR', ihdr),
			...texts,
			chunk('IDAT', deflateSync(raw)),
			chunk('IEND', new Uint8Array(0))
		])
	);
}

/** What a PNG says of itself: its size, whether it has alpha, and the types of its chunks. */
export function readPng(bytes: Uint8Array): { width: number; height: number; colourType: number; chunks: string[] } {
	const buf = Buffer.from(bytes);
	const chunks: string[] = [];
	for (let at = 8; at + 8 <= buf.length; at += 12 + buf.readUInt32BE(at)) chunks.push(buf.toString('ascii', at + 4, at + 8));
	return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20), colourType: buf[25] ?? -1, chunks };
}
