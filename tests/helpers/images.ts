/**
 * Images written by hand for the upload tests: a real PNG (deflated RGBA rows, decodable by any
 * browser) with any chunks added, and JPEG and WebP files with the segments and chunks the cleaner
 * walks (structure only: they are never decoded there).
 */
import { deflateSync } from 'node:zlib';
import { pngChunk, textChunk } from './card-png';

export { pngChunk, textChunk };

const u32be = (n: number) => {
	const b = Buffer.alloc(4);
	b.writeUInt32BE(n >>> 0);
	return b;
};

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function ihdr(width: number, height: number): Buffer {
	return pngChunk('IHDR', Buffer.concat([u32be(width), u32be(height), Buffer.from([8, 6, 0, 0, 0])]));
}

/** A width × height PNG of one colour; `before` goes after the header, `after` before the end. */
export function pngImage(
	width: number,
	height: number,
	opts: { rgba?: [number, number, number, number]; before?: Buffer[]; after?: Buffer[] } = {}
): Buffer {
	const [r, g, b, a] = opts.rgba ?? [200, 80, 40, 255];
	const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 4).map((_, i) => [r, g, b, a][i % 4] ?? 0)]);
	const raw = Buffer.concat(Array.from({ length: height }, () => row));
	return Buffer.concat([
		PNG_SIGNATURE,
		ihdr(width, height),
		...(opts.before ?? []),
		pngChunk('IDAT', deflateSync(raw)),
		...(opts.after ?? []),
		pngChunk('IEND', new Uint8Array())
	]);
}

/** A JPEG segment: marker and body with its length. */
export function jpegSegment(marker: number, body: Uint8Array): Buffer {
	const len = Buffer.alloc(2);
	len.writeUInt16BE(body.byteLength + 2);
	return Buffer.concat([Buffer.from([0xff, marker]), len, body]);
}

/** A JPEG's structure: JFIF, an EXIF block, a comment, tables, a frame of width × height, a scan with stuffed bytes. */
export function jpegImage(width: number, height: number, exif = 'Exif\0\0GPS 35.6895N 139.6917E'): Buffer {
	const sof = Buffer.from([8, height >> 8, height & 255, width >> 8, width & 255, 1, 1, 0x11, 0]);
	return Buffer.concat([
		Buffer.from([0xff, 0xd8]),
		jpegSegment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')),
		jpegSegment(0xe1, Buffer.from(exif, 'latin1')),
		jpegSegment(0xfe, Buffer.from('made by a camera of Alice', 'latin1')),
		jpegSegment(0xdb, Buffer.alloc(65, 1)),
		jpegSegment(0xc0, sof),
		jpegSegment(0xc4, Buffer.alloc(20, 2)),
		jpegSegment(0xda, Buffer.from([1, 1, 0, 0, 63, 0])),
		Buffer.from([0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56]),
		Buffer.from([0xff, 0xd9])
	]);
}

function riffChunk(type: string, data: Uint8Array): Buffer {
	const len = Buffer.alloc(4);
	len.writeUInt32LE(data.byteLength);
	return Buffer.concat([Buffer.from(type, 'latin1'), len, data, data.byteLength % 2 ? Buffer.from([0]) : Buffer.alloc(0)]);
}

/** An extended WebP: VP8X (with the EXIF and XMP flags set), a lossless picture, EXIF and XMP chunks. */
export function webpImage(width: number, height: number): Buffer {
	const vp8x = Buffer.alloc(10);
	vp8x[0] = 0x08 | 0x04;
	vp8x.writeUIntLE(width - 1, 4, 3);
	vp8x.writeUIntLE(height - 1, 7, 3);
	const vp8l = Buffer.alloc(9);
	vp8l[0] = 0x2f;
	vp8l.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 1);
	const body = Buffer.concat([
		Buffer.from('WEBP'),
		riffChunk('VP8X', vp8x),
		riffChunk('VP8L', vp8l),
		riffChunk('EXIF', Buffer.from('GPS 35.6895N')),
		riffChunk('XMP ', Buffer.from('<x:xmpmeta>Alice</x:xmpmeta>'))
	]);
	const size = Buffer.alloc(4);
	size.writeUInt32LE(body.byteLength);
	return Buffer.concat([Buffer.from('RIFF'), size, body]);
}
