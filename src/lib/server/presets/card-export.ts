/**
 * A preset's export in each format: Kantera's preset file, a Character Card V3 as JSON, as a PNG
 * (the card in `ccv3` and, for V2 readers, `chara`), and as a CHARX (zip: `card.json` and the
 * pictures: the author's art as the card's assets, or the picture as its icon). See
 * cards/from-preset.ts for how the preset becomes a card, cards/assets.ts for its art.
 */
import * as v from 'valibot';
import type { JsonObject } from '../records';
import type { WorldPreset } from '../worlds';
import { exportFileName, exportPreset } from './exchange';
import { embedOf } from './cards/embedded';
import { presetToCard } from './cards/from-preset';
import { writeCharx } from './cards/charx';
import { pngWithText } from './cards/png-write';
import { assetsOfArt, DEFAULT_EXPRESSION } from './cards/assets';
import type { ArtFile } from './art';
import type { AudioFile } from './audio';

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
export function cardOfPreset(preset: WorldPreset, now = Date.now(), fresh: JsonObject = {}) {
	return presetToCard(preset, preset.card, embedOf(preset, now), fresh);
}

/** The card as a V2 reader wants it in a PNG's `chara` chunk: the same fields under the V2 spec. */
function v2Card(card: ReturnType<typeof cardOfPreset>): JsonObject {
	return { ...card, spec: 'chara_card_v2', spec_version: '2.0' };
}

/**
 * The preset as a file in `format`. `drawn` is the drawn cover; `art` the author's images, which a card
 * carries as its assets (CHARX files, else data: URIs; see cards/assets.ts). A PNG card shows the
 * author's cover, else the main NPC's portrait, else the drawn cover, when it is a PNG. `sounds` (the
 * author's music, ambience and effects) travel in the Kantera preset file only: cards have no place for them.
 */
export function exportAs(
	preset: WorldPreset,
	format: ExportFormat,
	drawn: Uint8Array | undefined,
	now = Date.now(),
	art: readonly ArtFile[] = [],
	sounds: readonly AudioFile[] = []
): ExportedFile {
	const text = (value: unknown) => new TextEncoder().encode(JSON.stringify(value, null, 2));
	if (format === 'kantera') {
		return {
			body: text(exportPreset(preset, now, sounds)),
			contentType: 'application/json; charset=utf-8',
			fileName: exportFileName(preset)
		};
	}
	const main = { npc: preset.npcs[0]?.name ?? '', openingScene: preset.opening.scene.name };
	const images = art.map((a) => ({
		kind: a.kind,
		name: a.name,
		expression: a.expression,
		bytes: a.data.bytes,
		ext: a.image.slice(a.image.lastIndexOf('.') + 1)
	}));
	const { assets, files } = assetsOfArt(images, main, format === 'charx');
	const portrait = art.find((a) => a.kind === 'npc' && a.name === main.npc && a.expression === DEFAULT_EXPRESSION);
	const picture = [art.find((a) => a.kind === 'cover'), portrait].find((a) => a?.data.contentType === 'image/png')?.data.bytes ?? drawn;
	const icon = portrait
		? []
		: [{ type: 'icon', uri: format === 'charx' ? `embeded://${ICON_PATH}` : 'ccdefault:', name: 'main', ext: 'png' }];
	const withAssets: JsonObject = format === 'ccv3' && assets.length === 0 ? {} : { assets: [...icon, ...assets] };
	const card = cardOfPreset(preset, now, withAssets);
	if (format === 'ccv3')
		return { body: text(card), contentType: 'application/json; charset=utf-8', fileName: exportFileName(preset, '.card.json') };
	const image = pngWithText(picture, preset.title, {});
	if (format === 'png') {
		const body = pngWithText(image, preset.title, { ccv3: base64(JSON.stringify(card)), chara: base64(JSON.stringify(v2Card(card))) });
		return { body, contentType: 'image/png', fileName: exportFileName(preset, '.png') };
	}
	const body = writeCharx(card, { ...(portrait ? {} : { [ICON_PATH]: image }), ...files });
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
