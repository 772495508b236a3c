/**
 * The offline default: draws placeholders with no network and no cost, so the stage is complete on a
 * fresh install. Places get the backdrop of their kind of place (a room, a street, open country, the
 * outdoors at night), tinted by their name; characters get a full-body silhouette on a transparent
 * background, tinted by their name, and an expression sprite (`Name(expression)`) wears the face of
 * the expression's mood (`expressionMood`), so the reader sees which face is meant.
 *
 * Output depends on the kind, the name and (for places) the prompt only, through a hash: the same
 * input gives byte-identical SVG (no dates, no randomness), so a placeholder never flickers between
 * reloads or servers.
 */
import { createHash } from 'node:crypto';
import { backdropSvg, cutLabel, escapeXml, figureSvg, parseSpriteVariant } from '../../adv';
import { placeKind } from '../stage';
import type { GeneratedImage, ImageProvider, ImageRequest } from './provider';

/** Longest title written into an image; a longer name is cut with an ellipsis. */
const LABEL_MAX_CHARS = 60;
const HUE_STEPS = 360;
const BYTE_RANGE = 256;

export class OfflineImageProvider implements ImageProvider {
	readonly id = 'offline';

	async generate(request: ImageRequest): Promise<GeneratedImage> {
		if (request.signal.aborted) throw request.signal.reason;
		const svg = request.kind === 'sprite' ? silhouetteSvg(request.subject) : placeBackdropSvg(request.subject, request.prompt);
		return { bytes: new TextEncoder().encode(svg), contentType: 'image/svg+xml' };
	}
}

interface Palette {
	hue: number;
	/** 0..1 from the name, for small variations (a backdrop's tint). */
	shade: number;
}

function palette(name: string): Palette {
	const digest = createHash('sha256').update(name, 'utf8').digest();
	const word = ((digest[0] ?? 0) << 8) | (digest[1] ?? 0);
	return { hue: word % HUE_STEPS, shade: (digest[2] ?? 0) / (BYTE_RANGE - 1) };
}

/**
 * A place's backdrop drawn for its kind of place (room, street, open country, night; read from the
 * order's prompt: its name and visual description), tinted by its name so two rooms still differ.
 */
export function placeBackdropSvg(name: string, prompt = ''): string {
	return backdropSvg(placeKind(name, prompt), { idPrefix: 'bg', tint: palette(name).shade });
}

export function silhouetteSvg(name: string): string {
	const variant = parseSpriteVariant(name);
	// The title names the image in a viewer; the drawing shows the expression as a face, never its words.
	const svg = figureSvg({ idPrefix: 'fig', hue: palette(name).hue, expression: variant?.expression });
	return `${svg.replace('>', `><title>${escapeXml(cutLabel(name, LABEL_MAX_CHARS))}</title>`)}\n`;
}
