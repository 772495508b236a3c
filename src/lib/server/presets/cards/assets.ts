/**
 * A card's pictures as the preset's art (presets/art.ts), on import, and the art as a card's assets,
 * on export. CCv3 `assets`: `icon` → the main NPC's plain sprite, `emotion` → its expressions (an
 * emotion named `Name(expression)` is another NPC's, as Kantera writes them), `background` → places
 * (`main` is the opening scene), `x-kantera-cover` → the cover. A URI is `embeded://path` (a file of
 * the CHARX), `ccdefault:` (the PNG card's own picture) or a `data:` URI; web addresses are not
 * fetched. A PNG card's picture is the portrait when no icon says otherwise.
 *
 * Every picture goes through the upload cleaner (format from the bytes, limits, metadata dropped:
 * the card's own text chunks go with it); one that fails is reported as dropped, never half taken.
 */
import { parseSpriteVariant, spriteVariantName } from '../../../adv';
import { cleanUploadedImage, ImageUploadError, type CleanImage } from '../../images';
import { isJsonObject, type JsonObject } from '../../records';
import type { ImportDropCode, ImportReport } from '../../../types/presets';
import type { ArtTarget } from '../art';

export const DEFAULT_EXPRESSION = 'default';
/** The cover as an asset type: CCv3 leaves other types to apps, which ignore what they do not know. */
export const COVER_ASSET_TYPE = 'x-kantera-cover';
/** Assets read from one card at most (each is an image the preset keeps). */
export const MAX_CARD_ASSETS = 100;

export interface ImportedArt {
	readonly target: ArtTarget;
	readonly image: CleanImage;
}

export interface CardPictures {
	/** The card's `data.assets` as the file had them. */
	readonly assets: unknown;
	/** The PNG card's own picture. */
	readonly picture?: Uint8Array;
	/** A CHARX's files by path (what `embeded://` names). */
	readonly files?: ReadonlyMap<string, Uint8Array>;
	/** The NPC the card is (the preset's first), and the opening scene (`main` background). */
	readonly npc: string;
	readonly openingScene: string;
}

type Row = ImportReport['dropped'][number];

/** Where each asset's picture goes, with the report's rows: mapped to `art.…`, or dropped and why. */
export function artOfCard(card: CardPictures): { art: ImportedArt[]; mapped: ImportReport['mapped']; dropped: Row[] } {
	const art = new Map<string, ImportedArt>();
	const mapped: ImportReport['mapped'] = [];
	const dropped: Row[] = [];
	const drop = (field: string, code: ImportDropCode, why: string) => dropped.push({ field, code, why });
	const take = (field: string, target: ArtTarget, bytes: Uint8Array) => {
		try {
			const image = cleanUploadedImage(bytes);
			const where = artPath(target);
			if (art.has(where)) return drop(field, 'assets', `another asset already gave ${where}`);
			art.set(where, { target, image });
			mapped.push({ from: field, to: where });
		} catch (err) {
			if (!(err instanceof ImageUploadError)) throw err;
			drop(field, 'assets', err.message);
		}
	};
	const list = Array.isArray(card.assets) ? card.assets : [];
	let icon = false;
	for (const [i, asset] of list.slice(0, MAX_CARD_ASSETS).entries()) {
		const field = `data.assets.${i}`;
		const target = isJsonObject(asset ?? null) ? targetOf(asset as JsonObject, card) : undefined;
		if (!target) {
			const type = isJsonObject(asset ?? null) ? JSON.stringify((asset as JsonObject).type ?? null).slice(0, 60) : 'unreadable';
			drop(field, 'assets', `Kantera has no use for a ${type} asset; kept for export`);
			continue;
		}
		const uri = (asset as JsonObject).uri;
		const bytes = bytesOf(typeof uri === 'string' ? uri : '', card);
		if (typeof bytes === 'string') {
			drop(field, 'assets', bytes);
			continue;
		}
		if (target.kind === 'npc' && target.name === card.npc && target.expression === DEFAULT_EXPRESSION) icon = true;
		take(field, target, bytes);
	}
	if (list.length > MAX_CARD_ASSETS) drop(`data.assets.${MAX_CARD_ASSETS}`, 'assets', `more than ${MAX_CARD_ASSETS} assets`);
	if (card.picture && !icon) take('PNG image', { kind: 'npc', name: card.npc, expression: DEFAULT_EXPRESSION }, card.picture);
	return { art: [...art.values()], mapped, dropped };
}

/** How the editor and the report name an image of the art. */
export function artPath(target: ArtTarget): string {
	if (target.kind === 'npc') return `art.npcs.${target.name}.${target.expression}`;
	if (target.kind === 'place') return `art.places.${target.name}`;
	return 'art.cover';
}

function targetOf(asset: JsonObject, card: CardPictures): ArtTarget | undefined {
	const type = typeof asset.type === 'string' ? asset.type : '';
	const name = typeof asset.name === 'string' ? asset.name.trim() : '';
	if (type === 'icon') return name === '' || name === 'main' ? { kind: 'npc', name: card.npc, expression: DEFAULT_EXPRESSION } : undefined;
	if (type === 'emotion' && name !== '') {
		const variant = parseSpriteVariant(name);
		return variant
			? { kind: 'npc', name: variant.character, expression: variant.expression }
			: { kind: 'npc', name: card.npc, expression: name };
	}
	if (type === 'background') return { kind: 'place', name: name === '' || name === 'main' ? card.openingScene : name };
	if (type === COVER_ASSET_TYPE) return { kind: 'cover' };
	return undefined;
}

const DATA_URI = /^data:image\/[a-z0-9.+-]+;base64,([A-Za-z0-9+/=\s]*)$/i;

/** The bytes a URI names, or why there are none. */
function bytesOf(uri: string, card: CardPictures): Uint8Array | string {
	if (uri === 'ccdefault:') return card.picture ?? 'ccdefault: names the PNG picture, and this card is not a PNG';
	if (uri.startsWith('embeded://')) return card.files?.get(uri.slice('embeded://'.length)) ?? `${uri.slice(0, 120)} is not in the file`;
	const data = DATA_URI.exec(uri);
	if (data) return Buffer.from(data[1] ?? '', 'base64');
	if (/^https?:/i.test(uri)) return 'web addresses are not fetched';
	return 'the URI names nothing Kantera can read';
}

/** One image of the art, for a card: what it shows and its bytes. */
export interface ArtForCard {
	readonly kind: 'npc' | 'place' | 'cover';
	readonly name: string;
	readonly expression: string;
	readonly bytes: Uint8Array;
	readonly ext: string;
}

/**
 * The art as CCv3 assets: each with a URI made by `uri` (a CHARX file, or a data: URI), the files that
 * go with them, and the picture a PNG card shows (the cover, else the portrait, when one is a PNG).
 */
export function assetsOfArt(
	art: readonly ArtForCard[],
	card: Pick<CardPictures, 'npc' | 'openingScene'>,
	embed: boolean
): { assets: JsonObject[]; files: Record<string, Uint8Array> } {
	const assets: JsonObject[] = [];
	const files: Record<string, Uint8Array> = {};
	art.forEach((a, i) => {
		const [type, name] =
			a.kind === 'cover'
				? [COVER_ASSET_TYPE, 'cover']
				: a.kind === 'place'
					? ['background', a.name === card.openingScene ? 'main' : a.name]
					: a.expression === DEFAULT_EXPRESSION && a.name === card.npc
						? ['icon', 'main']
						: ['emotion', a.name === card.npc ? a.expression : spriteVariantName(a.name, a.expression)];
		const path = `assets/${type}/images/${i}.${a.ext}`;
		const mime = a.ext === 'jpg' ? 'image/jpeg' : `image/${a.ext}`;
		const uri = embed ? `embeded://${path}` : `data:${mime};base64,${Buffer.from(a.bytes).toString('base64')}`;
		if (embed) files[path] = a.bytes;
		assets.push({ type, uri, name, ext: a.ext });
	});
	return { assets, files };
}
