/**
 * Card PNGs for export: a picture with the card in `ccv3` and `chara` tEXt chunks (base64 of the
 * card's JSON, as both specs say), written before the image data. The picture is the preset's cover
 * when it is a PNG; otherwise a placeholder is drawn here: a portrait-shaped gradient in a colour
 * taken from the title, so cards of different worlds tell apart at a glance.
 */
import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { isPng } from '../png';

const SIGNATURE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** The card's own chunks, dropped from a picture that already had some. */
const CARD_KEYWORDS = new Set(['chara', 'ccv3']);
const PLACEHOLDER = { width: 400, height: 600 } as const;

function chunk(type: string, data: Uint8Array): Uint8Array {
	const out = new Uint8Array(12 + data.length);
	const view = new DataView(out.buffer);
	view.setUint32(0, data.length);
	out.set(new TextEncoder().encode(type), 4);
	out.set(data, 8);
	view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
	return out;
}

function textChunk(keyword: string, text: string): Uint8Array {
	const latin1 = Uint8Array.from(`${keyword}\u0000${text}`, (c) => c.charCodeAt(0));
	return chunk('tEXt', latin1);
}

interface Chunk {
	type: string;
	bytes: Uint8Array;
	keyword?: string;
}

/** A PNG's chunks, whole (header, data, CRC), with a tEXt chunk's keyword. The file is trusted: it is ours. */
function chunksOf(png: Uint8Array): Chunk[] {
	const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
	const out: Chunk[] = [];
	for (let at = SIGNATURE.length; at + 12 <= png.length;) {
		const length = view.getUint32(at);
		const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
		const bytes = png.subarray(at, at + 12 + length);
		const data = bytes.subarray(8, 8 + length);
		const nul = type === 'tEXt' ? data.indexOf(0) : -1;
		out.push({ type, bytes, ...(nul > 0 ? { keyword: String.fromCharCode(...data.subarray(0, nul)) } : {}) });
		at += 12 + length;
		if (type === 'IEND') break;
	}
	return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const p of parts) {
		out.set(p, at);
		at += p.length;
	}
	return out;
}

/** A gradient placeholder, RGB, in a hue chosen by `seed`. */
export function placeholderPng(seed: string): Uint8Array<ArrayBuffer> {
	const { width, height } = PLACEHOLDER;
	const hash = createHash('sha256').update(seed).digest();
	const hue = ((hash[0] ?? 0) / 255) * 360;
	const rgb = (h: number, l: number): [number, number, number] => {
		const c = (1 - Math.abs(2 * l - 1)) * 0.45;
		const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
		const [r, g, b] =
			h < 60 ? [c, x, 0] : h < 120 ? [x, c, 0] : h < 180 ? [0, c, x] : h < 240 ? [0, x, c] : h < 300 ? [x, 0, c] : [c, 0, x];
		const m = l - c / 2;
		return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
	};
	const raw = new Uint8Array((width * 3 + 1) * height);
	for (let y = 0; y < height; y++) {
		const [r, g, b] = rgb(hue, 0.55 - (0.4 * y) / height);
		const row = y * (width * 3 + 1);
		for (let x = 0; x < width; x++) raw.set([r, g, b], row + 1 + x * 3);
	}
	const header = new Uint8Array(13);
	const view = new DataView(header.buffer);
	view.setUint32(0, width);
	view.setUint32(4, height);
	header.set([8, 2, 0, 0, 0], 8);
	return concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', new Uint8Array(0))]);
}

/** `picture` (a PNG, else the placeholder for `seed`) with these tEXt chunks (keyword → text) before its image data. */
export function pngWithText(
	picture: Uint8Array | undefined,
	seed: string,
	texts: Readonly<Record<string, string>>
): Uint8Array<ArrayBuffer> {
	const png = picture && isPng(picture) ? picture : placeholderPng(seed);
	const chunks = chunksOf(png).filter((c) => !(c.keyword !== undefined && CARD_KEYWORDS.has(c.keyword)));
	const firstData = chunks.findIndex((c) => c.type === 'IDAT');
	const at = firstData < 0 ? chunks.length - 1 : firstData;
	const added = Object.entries(texts).map(([keyword, text]) => textChunk(keyword, text));
	return concat([SIGNATURE, ...chunks.slice(0, at).map((c) => c.bytes), ...added, ...chunks.slice(at).map((c) => c.bytes)]);
}
