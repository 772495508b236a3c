/**
 * Uploaded images: told apart by content, bounded before decoding, and cleaned of metadata, with
 * hostile files (a chunk declaring 50 MB, wrong magic, a pixel bomb, a truncated file) refused.
 */
import { describe, expect, it } from 'vitest';
import { cleanUploadedImage, ImageUploadError, UPLOAD_LIMITS } from '../../../src/lib/server/images';
import { translate } from '../../../src/lib/i18n/all-languages';
import { ihdr, jpegImage, PNG_SIGNATURE, pngChunk, pngImage, textChunk, webpImage } from '../../helpers/images';

const has = (bytes: Uint8Array, text: string) => Buffer.from(bytes).includes(Buffer.from(text, 'latin1'));
const refused = (bytes: Uint8Array, message: RegExp) => {
	expect(() => cleanUploadedImage(bytes)).toThrow(ImageUploadError);
	expect(() => cleanUploadedImage(bytes)).toThrow(message);
};

describe('cleanUploadedImage', () => {
	it('keeps a PNG picture and drops its text, EXIF and time chunks', () => {
		const png = pngImage(3, 2, {
			before: [textChunk('Author', 'Alice Example'), pngChunk('eXIf', Buffer.from('GPS 35.68N')), pngChunk('tIME', Buffer.alloc(7))],
			after: [textChunk('Comment', 'drawn at home')]
		});
		const clean = cleanUploadedImage(png);
		expect(clean).toMatchObject({ contentType: 'image/png', width: 3, height: 2 });
		for (const gone of ['Alice Example', 'GPS', 'tIME', 'drawn at home', 'tEXt']) expect(has(clean.bytes, gone), gone).toBe(false);
		// Exactly the picture's own chunks remain, in order.
		expect(Buffer.from(clean.bytes).equals(pngImage(3, 2))).toBe(true);
	});

	it('drops a JPEG’s EXIF and comment and keeps its frame, tables and scan', () => {
		const jpeg = jpegImage(640, 480);
		const clean = cleanUploadedImage(jpeg);
		expect(clean).toMatchObject({ contentType: 'image/jpeg', width: 640, height: 480 });
		expect(has(clean.bytes, 'GPS')).toBe(false);
		expect(has(clean.bytes, 'camera of Alice')).toBe(false);
		expect(has(clean.bytes, 'JFIF')).toBe(true);
		expect(clean.bytes.byteLength).toBe(
			jpeg.byteLength - (4 + 'Exif\0\0GPS 35.6895N 139.6917E'.length) - (4 + 'made by a camera of Alice'.length)
		);
		expect([...clean.bytes.subarray(-9)]).toEqual([0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56, 0xff, 0xd9]);
	});

	it('drops a WebP’s EXIF and XMP chunks, clears their flags and fixes the RIFF size', () => {
		const clean = cleanUploadedImage(webpImage(300, 200));
		expect(clean).toMatchObject({ contentType: 'image/webp', width: 300, height: 200 });
		expect(has(clean.bytes, 'GPS')).toBe(false);
		expect(has(clean.bytes, 'Alice')).toBe(false);
		const dv = new DataView(clean.bytes.buffer);
		expect(dv.getUint32(4, true)).toBe(clean.bytes.byteLength - 8);
		expect((clean.bytes[20] ?? 0) & 0x0c).toBe(0);
	});

	it('refuses a PNG chunk that declares 50 MB without reading past the file', () => {
		const huge = Buffer.concat([PNG_SIGNATURE, ihdr(4, 4), pngChunk('tEXt', Buffer.from('a\0b'), 50 * 1024 * 1024)]);
		refused(huge, /longer \(52428800 bytes\) than the file/);
	});

	it('refuses what is not a PNG, JPEG or WebP whatever it is called, and broken files', () => {
		refused(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), /not a PNG, JPEG or WebP/);
		refused(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), /not a PNG, JPEG or WebP/);
		refused(new Uint8Array(), /empty/);
		const png = pngImage(2, 2);
		refused(png.subarray(0, png.byteLength - 5), /PNG/);
		const bad = Buffer.from(png);
		bad[44] = (bad[44] ?? 0) ^ 0xff; // inside the IDAT data
		refused(bad, /checksum/);
		refused(Buffer.concat([PNG_SIGNATURE, pngChunk('IDAT', Buffer.alloc(3)), pngChunk('IEND', new Uint8Array())]), /header chunk/);
		const jpeg = jpegImage(10, 10);
		refused(jpeg.subarray(0, jpeg.byteLength - 12), /JPEG/);
	});

	it('refuses a pixel bomb from its header, before anything is inflated', () => {
		const bomb = Buffer.concat([
			PNG_SIGNATURE,
			ihdr(100_000, 100_000),
			pngChunk('IDAT', Buffer.alloc(16)),
			pngChunk('IEND', new Uint8Array())
		]);
		refused(bomb, /100000×100000 pixels/);
		refused(jpegImage(UPLOAD_LIMITS.side + 1, 10), /pixels/);
		refused(webpImage(16_000, 16_000), /pixels/);
		refused(Buffer.concat([PNG_SIGNATURE, ihdr(0, 10), pngChunk('IEND', new Uint8Array())]), /no pixels/);
	});

	it('refuses a file over the byte limit', () => {
		const big = Buffer.concat([pngImage(1, 1), Buffer.alloc(UPLOAD_LIMITS.bytes)]);
		refused(big, /larger than 8 MB/);
	});
});

describe('the refusal in the reader’s language', () => {
	const wordingOf = (bytes: Uint8Array) => {
		try {
			cleanUploadedImage(bytes);
		} catch (err) {
			if (err instanceof ImageUploadError) return { en: err.message, ja: translate('ja', err.wording.key, err.wording.params) };
		}
		throw new Error('not refused');
	};

	it('words every kind of refusal in Japanese, with the English message unchanged', () => {
		expect(wordingOf(new Uint8Array())).toEqual({ en: 'The image is empty.', ja: '画像ファイルが空です。' });
		expect(wordingOf(Buffer.from('<svg/>')).ja).toMatch(/^PNG・JPEG・WebP の画像ではありません/);
		const big = wordingOf(pngImage(UPLOAD_LIMITS.side + 1, 1));
		expect(big.en).toMatch(/pixels; at most/);
		expect(big.ja).toBe(
			`画像が ${UPLOAD_LIMITS.side + 1}×1 ピクセルあります。受け付けるのは ${UPLOAD_LIMITS.side}×${UPLOAD_LIMITS.side} ピクセルまでです。`
		);
		// A broken file's technical detail stays as it is, inside a Japanese sentence.
		const cut = wordingOf(pngImage(2, 2).subarray(0, 40));
		expect(cut.ja).toBe(`画像ファイルが壊れているか、途中で切れています（${cut.en}）。`);
	});
});
