/**
 * A preset's export in each format: Kantera's preset file, a Character Card V3 as JSON, as a PNG
 * (the card in `ccv3` and, for V2 readers, `chara`), and as a CHARX (zip: `card.json` and the
 * picture as the card's icon). The picture is the cover when one has been drawn as a PNG, else a
 * placeholder. See cards/from-preset.ts for how the preset becomes a card.
 */
import * as v from 'valibot';
import type { JsonObject } from '../records';
import type { WorldPreset } from '../worlds';
import { exportFileName, exportPreset } from './exchange';
import { embedOf } from './cards/embedded';
import { presetToCard } from './cards/from-preset';
import { writeCharx } from './cards/charx';
import { pngWithText } from './cards/png-write';

export const EXPORT_FORMATS = ['kantera', 'ccv3', 'png', 'charx'] as const;
export const ExportFormatSchema = v.picklist(EXPORT_FORMATS, 'format must be kantera, ccv3, png or charx');
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportedFile {
	readonly body: Uint8Array<ArrayBuffer>;
	readonly contentType: string;
	readonly fileName: string;
}

const ICON_PATH = 'assets/icon/images/main.png';
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** The card a preset exports as (CCv3, with the preset in `extensions.kantera`). */
export function cardOfPreset(preset: WorldPreset, now = Date.now(), extra: JsonObject = {}) {
	return presetToCard(preset, preset.card, embedOf(preset, now), extra);
}

/** The card as a V2 reader wants it in a PNG's `chara` chunk: the same fields under the V2 spec. */
function v2Card(card: ReturnType<typeof cardOfPreset>): JsonObject {
	return { ...card, spec: 'chara_card_v2', spec_version: '2.0' };
}

export function exportAs(preset: WorldPreset, format: ExportFormat, picture: Uint8Array | undefined, now = Date.now()): ExportedFile {
	const text = (value: unknown) => new TextEncoder().encode(JSON.stringify(value, null, 2));
	if (format === 'kantera') {
		return { body: text(exportPreset(preset, now)), contentType: 'application/json; charset=utf-8', fileName: exportFileName(preset) };
	}
	const icon = { assets: [{ type: 'icon', uri: `embeded://${ICON_PATH}`, name: 'main', ext: 'png' }] };
	const card = cardOfPreset(preset, now, format === 'charx' ? icon : {});
	if (format === 'ccv3')
		return { body: text(card), contentType: 'application/json; charset=utf-8', fileName: exportFileName(preset, '.card.json') };
	const image = pngWithText(picture, preset.title, {});
	if (format === 'png') {
		const body = pngWithText(image, preset.title, { ccv3: base64(JSON.stringify(card)), chara: base64(JSON.stringify(v2Card(card))) });
		return { body, contentType: 'image/png', fileName: exportFileName(preset, '.png') };
	}
	const body = writeCharx(card, { [ICON_PATH]: image });
	return { body: new Uint8Array(body), contentType: 'application/zip', fileName: exportFileName(preset, '.charx') };
}

/** The file as a download: its type, its name (ASCII fallback and UTF-8), never cached. */
export function downloadResponse(file: ExportedFile): Response {
	const ending = /\.[a-z.]+$/i.exec(file.fileName)?.[0] ?? '';
	return new Response(file.body, {
		headers: {
			'content-type': file.contentType,
			'content-disposition': `attachment; filename="preset${ending}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
			'cache-control': 'no-store'
		}
	});
}
