/**
 * An image a person uploads (an author's sprite, background or cover), made safe to store and serve:
 * its format told from its bytes (PNG, JPEG or WebP; never from a name or a Content-Type), its size in
 * bytes and pixels bounded from the header before anything is decoded, and its metadata dropped (EXIF,
 * XMP, text chunks, comments: where and when a photo was taken, the software, an author's name).
 *
 * Nothing is decoded or re-encoded: the file is walked chunk by chunk (PNG chunks, JPEG segments,
 * RIFF chunks), every declared length checked against the bytes that are there, and only the parts
 * that draw the picture are copied out. A length that runs past the end, a wrong magic number or a
 * picture larger than the limits is refused with a message saying which.
 */
import { crc32 } from 'node:zlib';
import { translate } from '../../i18n/all-languages';
import { sniffRaster, type ImageContentType } from './provider';

export const UPLOAD_LIMITS = {
	bytes: 8 * 1024 * 1024,
	/** Width or height. */
	side: 4096,
	/** Width × height: what a decoder would allocate, bounded before anyone decodes it (a "pixel bomb"). */
	pixels: 4096 * 4096
} as const;

/** What the reader's language says for a refusal: an i18n key and its parameters (the `message` is its English). */
export interface UploadWording {
	readonly key:
		| 'upload.image.empty'
		| 'upload.image.tooLarge'
		| 'upload.image.notImage'
		| 'upload.image.noPixels'
		| 'upload.image.tooManyPixels'
		| 'upload.image.broken';
	readonly params: Readonly<Record<string, string | number>>;
}

/**
 * An upload refused: the message says why, for the person who sent it, and `wording` says it in their language.
 * A broken file's detail (which chunk, which marker) stays English inside the sentence: it is for whoever repairs it.
 */
export class ImageUploadError extends Error {
	readonly wording: UploadWording;
	constructor(message: string, wording?: UploadWording) {
		super(message);
		this.name = 'ImageUploadError';
		this.wording = wording ?? { key: 'upload.image.broken', params: { detail: message } };
	}
}

function refused(key: UploadWording['key'], params: UploadWording['params'] = {}): ImageUploadError {
	return new ImageUploadError(translate('en', key, params), { key, params });
}

export interface CleanImage {
	readonly bytes: Uint8Array<ArrayBuffer>;
	readonly contentType: Exclude<ImageContentType, 'image/svg+xml'>;
	readonly width: number;
	readonly height: number;
}

/** The uploaded bytes as a clean image, or ImageUploadError. */
export function cleanUploadedImage(bytes: Uint8Array): CleanImage {
	if (bytes.byteLength === 0) throw refused('upload.image.empty');
	if (bytes.byteLength > UPLOAD_LIMITS.bytes) throw refused('upload.image.tooLarge', { mb: UPLOAD_LIMITS.bytes / 1024 / 1024 });
	const type = sniffRaster(bytes);
	if (type === 'image/png') return bounded(cleanPng(bytes));
	if (type === 'image/jpeg') return bounded(cleanJpeg(bytes));
	if (type === 'image/webp') return bounded(cleanWebp(bytes));
	throw refused('upload.image.notImage');
}

function bounded(image: CleanImage): CleanImage {
	const { width, height } = image;
	if (width < 1 || height < 1) throw refused('upload.image.noPixels');
	if (width > UPLOAD_LIMITS.side || height > UPLOAD_LIMITS.side || width * height > UPLOAD_LIMITS.pixels)
		throw refused('upload.image.tooManyPixels', { width, height, side: UPLOAD_LIMITS.side });
	return image;
}

function joined(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
	const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
	let at = 0;
	for (const part of parts) {
		out.set(part, at);
		at += part.byteLength;
	}
	return out;
}

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const ascii = (bytes: Uint8Array) => String.fromCharCode(...bytes);

/**
 * PNG chunks that draw the picture (critical ones, transparency, colour, animation); text, EXIF,
 * timestamps and any chunk not known here are dropped.
 */
const PNG_KEPT = new Set([
	'IHDR',
	'PLTE',
	'IDAT',
	'IEND',
	'tRNS',
	'gAMA',
	'cHRM',
	'sRGB',
	'iCCP',
	'sBIT',
	'bKGD',
	'pHYs',
	'acTL',
	'fcTL',
	'fdAT'
]);
const PNG_SIGNATURE = 8;
/** Chunks walked at most: a real image has a few hundred at worst; this bounds a hostile file's work. */
const MAX_PNG_CHUNKS = 100_000;

function cleanPng(bytes: Uint8Array): CleanImage {
	const dv = view(bytes);
	const parts: Uint8Array[] = [bytes.subarray(0, PNG_SIGNATURE)];
	let offset = PNG_SIGNATURE;
	let size: { width: number; height: number } | undefined;
	for (let n = 0; n < MAX_PNG_CHUNKS; n++) {
		if (offset + 8 > bytes.byteLength) throw new ImageUploadError('The PNG ends before its last chunk.');
		const length = dv.getUint32(offset);
		const type = ascii(bytes.subarray(offset + 4, offset + 8));
		if (!/^[A-Za-z]{4}$/.test(type)) throw new ImageUploadError('The PNG has a chunk with an invalid type.');
		const end = offset + 12 + length;
		// The declared length is checked against the bytes there before anything is read from it.
		if (end > bytes.byteLength) throw new ImageUploadError(`The PNG's ${type} chunk says it is longer (${length} bytes) than the file.`);
		if (crc32(bytes.subarray(offset + 4, end - 4)) !== dv.getUint32(end - 4))
			throw new ImageUploadError(`The PNG's ${type} chunk fails its checksum.`);
		if (n === 0) {
			if (type !== 'IHDR' || length !== 13) throw new ImageUploadError('The PNG does not start with its header chunk.');
			size = { width: dv.getUint32(offset + 8), height: dv.getUint32(offset + 12) };
		}
		if (PNG_KEPT.has(type)) parts.push(bytes.subarray(offset, end));
		if (type === 'IEND') {
			if (!size) break;
			return { bytes: joined(parts), contentType: 'image/png', ...size };
		}
		offset = end;
	}
	throw new ImageUploadError('The PNG has too many chunks.');
}

const JPEG_SOI = 0xd8;
const JPEG_EOI = 0xd9;
const JPEG_SOS = 0xda;
const JPEG_COM = 0xfe;
/** Frame headers (SOF0–SOF15) carry the size; C4, C8 and CC share the range but are other things. */
const isSof = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
const isRst = (marker: number) => marker >= 0xd0 && marker <= 0xd7;
/**
 * APPn segments kept: APP0 (JFIF: pixel density), APP14 (Adobe: how the colours are coded, without
 * which some files decode wrongly) and an APP2 ICC profile. EXIF and XMP (APP1), the others and
 * comments are dropped.
 */
function keepApp(marker: number, body: Uint8Array): boolean {
	if (marker === 0xe0 || marker === 0xee) return true;
	if (marker === 0xe2) return ascii(body.subarray(0, 12)) === 'ICC_PROFILE\0';
	return false;
}

function cleanJpeg(bytes: Uint8Array): CleanImage {
	const dv = view(bytes);
	const parts: Uint8Array[] = [bytes.subarray(0, 2)];
	let offset = 2;
	let size: { width: number; height: number } | undefined;
	while (offset < bytes.byteLength) {
		if (bytes[offset] !== 0xff) throw new ImageUploadError('The JPEG has bytes where a segment should start.');
		const marker = bytes[offset + 1] ?? 0;
		if (marker === 0xff) {
			offset++; // fill byte
			continue;
		}
		if (marker === JPEG_EOI) {
			parts.push(bytes.subarray(offset, offset + 2));
			if (!size) throw new ImageUploadError('The JPEG has no frame header.');
			return { bytes: joined(parts), contentType: 'image/jpeg', ...size };
		}
		if (marker === JPEG_SOI || isRst(marker)) throw new ImageUploadError('The JPEG has a marker out of place.');
		if (offset + 4 > bytes.byteLength) throw new ImageUploadError('The JPEG ends inside a segment.');
		const length = dv.getUint16(offset + 2);
		const end = offset + 2 + length;
		if (length < 2 || end > bytes.byteLength) throw new ImageUploadError('A JPEG segment says it is longer than the file.');
		const body = bytes.subarray(offset + 4, end);
		if (isSof(marker)) {
			if (length < 8) throw new ImageUploadError('The JPEG frame header is too short.');
			size = { height: dv.getUint16(offset + 5), width: dv.getUint16(offset + 7) };
		}
		const app = marker >= 0xe0 && marker <= 0xef;
		if (!(app && !keepApp(marker, body)) && marker !== JPEG_COM) parts.push(bytes.subarray(offset, end));
		offset = end;
		if (marker === JPEG_SOS) {
			// The coded picture runs to the next marker that is neither a stuffed 0xFF00 nor a restart.
			let scan = offset;
			while (
				scan + 1 < bytes.byteLength &&
				!(bytes[scan] === 0xff && bytes[scan + 1] !== 0 && !isRst(bytes[scan + 1] ?? 0) && bytes[scan + 1] !== 0xff)
			)
				scan++;
			if (scan + 1 >= bytes.byteLength) throw new ImageUploadError('The JPEG ends inside its picture data.');
			parts.push(bytes.subarray(offset, scan));
			offset = scan;
		}
	}
	throw new ImageUploadError('The JPEG ends before its end marker.');
}

/** WebP chunks that draw the picture; EXIF and XMP are dropped (and their flags cleared in VP8X). */
const WEBP_KEPT = new Set(['VP8 ', 'VP8L', 'VP8X', 'ALPH', 'ANIM', 'ANMF', 'ICCP']);
const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;
const RIFF_HEADER = 12;
const MAX_WEBP_CHUNKS = 100_000;

function cleanWebp(bytes: Uint8Array): CleanImage {
	const dv = view(bytes);
	const riffEnd = 8 + dv.getUint32(4, true);
	if (riffEnd > bytes.byteLength || riffEnd < RIFF_HEADER) throw new ImageUploadError('The WebP says it is longer than the file.');
	const parts: Uint8Array[] = [];
	let offset = RIFF_HEADER;
	let size: { width: number; height: number } | undefined;
	for (let n = 0; offset < riffEnd; n++) {
		if (n >= MAX_WEBP_CHUNKS) throw new ImageUploadError('The WebP has too many chunks.');
		if (offset + 8 > riffEnd) throw new ImageUploadError('The WebP ends inside a chunk header.');
		const type = ascii(bytes.subarray(offset, offset + 4));
		const length = dv.getUint32(offset + 4, true);
		const dataEnd = offset + 8 + length;
		const end = dataEnd + (length % 2);
		if (dataEnd > riffEnd) throw new ImageUploadError(`The WebP's ${type.trim()} chunk says it is longer than the file.`);
		const data = bytes.subarray(offset + 8, dataEnd);
		size ??= webpSize(type, data);
		if (WEBP_KEPT.has(type)) {
			const chunk = bytes.slice(offset, Math.min(end, riffEnd));
			if (type === 'VP8X' && chunk.byteLength > 8) chunk[8] = (chunk[8] ?? 0) & ~(VP8X_EXIF | VP8X_XMP);
			parts.push(chunk);
		}
		offset = end;
	}
	if (!size) throw new ImageUploadError('The WebP has no picture.');
	const body = joined(parts);
	const header = new Uint8Array(RIFF_HEADER);
	header.set(bytes.subarray(0, RIFF_HEADER));
	view(header).setUint32(4, 4 + body.byteLength, true);
	return { bytes: joined([header, body]), contentType: 'image/webp', ...size };
}

/** The canvas size a WebP chunk declares, if it is one that declares it. */
function webpSize(type: string, data: Uint8Array): { width: number; height: number } | undefined {
	const dv = view(data);
	if (type === 'VP8X' && data.byteLength >= 10) {
		const u24 = (at: number) => (data[at] ?? 0) | ((data[at + 1] ?? 0) << 8) | ((data[at + 2] ?? 0) << 16);
		return { width: u24(4) + 1, height: u24(7) + 1 };
	}
	if (type === 'VP8 ' && data.byteLength >= 10) {
		if (data[3] !== 0x9d || data[4] !== 0x01 || data[5] !== 0x2a) throw new ImageUploadError('The WebP picture has a wrong start code.');
		return { width: dv.getUint16(6, true) & 0x3fff, height: dv.getUint16(8, true) & 0x3fff };
	}
	if (type === 'VP8L' && data.byteLength >= 5) {
		if (data[0] !== 0x2f) throw new ImageUploadError('The WebP picture has a wrong signature.');
		const bits = dv.getUint32(1, true);
		return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
	}
	return undefined;
}
