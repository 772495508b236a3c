/**
 * The editor's Art section as an author uses it: a cover, a character's sprites and a place's
 * background uploaded from files (a PNG with text chunks, a JPEG and a WebP that the browser itself
 * encoded, each with an EXIF block added), previewed, refused with a message when the file is not an
 * image, and removed. Every cleaned file must still decode in the browser. Screenshots of the section
 * in both languages, desktop and phone, are kept under test-results/presets/art/ for a person to look at.
 */
import { test, expect, type Page } from '@playwright/test';
import { uniqueName, signUp } from './helpers';
import { presetContent } from './presets-helpers';
import { pngImage, textChunk } from '../helpers/images';

const SHOTS = 'test-results/presets/art';
const WORDS = {
	en: {
		title: 'Art',
		upload: 'Upload',
		remove: 'Remove',
		refused: 'The image was not saved',
		why: 'not a PNG, JPEG or WebP',
		none: 'None yet.'
	},
	ja: {
		title: 'アート',
		upload: 'アップロード',
		remove: '削除',
		refused: '画像は保存されませんでした',
		why: 'PNG・JPEG・WebP の画像ではありません',
		none: 'まだありません。'
	}
} as const;

/** A picture the browser encodes as `type`, with an EXIF-like APP1 segment (JPEG) or chunk (WebP) added after the header. */
async function browserImage(page: Page, type: 'image/jpeg' | 'image/webp'): Promise<Buffer> {
	const base64 = await page.evaluate(async (mime) => {
		const canvas = document.createElement('canvas');
		canvas.width = 48;
		canvas.height = 64;
		const g = canvas.getContext('2d');
		if (!g) throw new Error('no 2d context');
		g.fillStyle = '#3a6ea5';
		g.fillRect(0, 0, 48, 64);
		g.fillStyle = '#f0c040';
		g.beginPath();
		g.arc(24, 20, 12, 0, Math.PI * 2);
		g.fill();
		return canvas.toDataURL(mime, 0.9).split(',')[1] ?? '';
	}, type);
	const bytes = Buffer.from(base64, 'base64');
	if (type === 'image/jpeg') {
		const exif = Buffer.from('Exif\0\0GPS 35.6895N camera of Alice', 'latin1');
		const segment = Buffer.concat([Buffer.from([0xff, 0xe1, (exif.length + 2) >> 8, (exif.length + 2) & 255]), exif]);
		return Buffer.concat([bytes.subarray(0, 2), segment, bytes.subarray(2)]);
	}
	// A simple WebP (RIFF, then one VP8 chunk): the EXIF chunk goes at the end; the reader ignores it.
	const exif = Buffer.from('GPS 35.6895N', 'latin1');
	const chunk = Buffer.concat([Buffer.from('EXIF'), Buffer.from([exif.length, 0, 0, 0]), exif]);
	const out = Buffer.concat([bytes, chunk]);
	out.writeUInt32LE(out.length - 8, 4);
	return out;
}

/** Every preview in the section has been decoded by the browser (a cleaned file that broke would not be). */
async function expectDecoded(page: Page): Promise<void> {
	const tiles = page.locator('#art img');
	await expect
		.poll(async () => tiles.evaluateAll((imgs) => imgs.every((i) => i instanceof HTMLImageElement && i.complete && i.naturalWidth > 0)))
		.toBe(true);
}

test('an author uploads, previews, replaces and removes art in both languages; a bad file is refused with a message', async ({
	page,
	context
}) => {
	test.setTimeout(180_000);
	await page.setViewportSize({ width: 1280, height: 800 });
	await signUp(page, uniqueName('art'));
	const host = new URL(page.url()).hostname;
	for (const language of ['en', 'ja'] as const) {
		const words = WORDS[language];
		await context.addCookies([{ name: 'kantera_lang', value: language, domain: host, path: '/' }]);
		const created = await page.request.post('/api/v1/presets', {
			data: presetContent({ title: `Art ${language}`, tagline: 'Pictures' }, language)
		});
		expect(created.status()).toBe(201);
		const { id } = (await created.json()) as { id: string };
		await page.setViewportSize({ width: 1280, height: 800 });
		await page.goto(`/presets/${id}/edit`);
		const section = page.locator('#art');
		await expect(section.getByRole('heading', { name: words.title, exact: true })).toBeVisible();

		const upload = async (form: string, file: { name: string; mimeType: string; buffer: Buffer }, fill?: string) => {
			const f = page.getByTestId(`art-upload-${form}`);
			if (fill !== undefined) await f.locator('input:not([type=hidden]):not([type=file])').fill(fill);
			await f.locator('input[type=file]').setInputFiles(file);
			await f.getByRole('button', { name: words.upload }).click();
		};
		await upload('art-cover', {
			name: 'cover.png',
			mimeType: 'image/png',
			buffer: pngImage(64, 36, { before: [textChunk('Author', 'Alice')] })
		});
		await expect(section.getByTestId('art-tile')).toHaveCount(1);
		await upload('art-npc-0', { name: 'plain.jpg', mimeType: 'image/jpeg', buffer: await browserImage(page, 'image/jpeg') });
		await expect(section.getByTestId('art-tile')).toHaveCount(2);
		await upload('art-npc-0', { name: 'smile.webp', mimeType: 'image/webp', buffer: await browserImage(page, 'image/webp') }, 'smile');
		await expect(section.getByTestId('art-tile')).toHaveCount(3);
		await upload('art-place', { name: 'hall.png', mimeType: 'image/png', buffer: pngImage(80, 45, { rgba: [40, 60, 90, 255] }) });
		await expect(section.getByTestId('art-tile')).toHaveCount(4);
		await expectDecoded(page);

		// Named like an image, but it is not one.
		await upload('art-cover', { name: 'evil.png', mimeType: 'image/png', buffer: Buffer.from('<svg onload="alert(1)"></svg>') });
		await expect(section.getByRole('alert')).toContainText(words.refused);
		// Why, in the reader's language too (a Japanese page said it in English).
		await expect(section.getByRole('alert')).toContainText(words.why);
		await expect(section.getByTestId('art-tile')).toHaveCount(4);

		await section.scrollIntoViewIfNeeded();
		await section.screenshot({ path: `${SHOTS}/art.desktop.${language}.png` });
		await page.setViewportSize({ width: 390, height: 844 });
		await section.screenshot({ path: `${SHOTS}/art.phone.${language}.png` });
		await page.setViewportSize({ width: 1280, height: 800 });

		const list = (await (await page.request.get(`/api/v1/presets/${id}/art`)).json()) as { items: { kind: string; expression?: string }[] };
		expect(list.items.map((a) => `${a.kind}:${a.expression ?? ''}`)).toEqual(['cover:', 'npc:default', 'npc:smile', 'place:']);

		await section.getByRole('button', { name: `${words.remove}: smile` }).click();
		await expect(section.getByTestId('art-tile')).toHaveCount(3);
		await expectDecoded(page);
	}
});
