/**
 * The offline default: draws placeholders with no network and no cost, so the stage is complete on a
 * fresh install. Places get a perspective grid in a colour of their own with the name as a small
 * label; characters get a full-body silhouette on a transparent background, tinted by their name.
 *
 * Output depends on the kind and the name only, through a hash: the same input gives byte-identical
 * SVG (no dates, no randomness), so a placeholder never flickers between reloads or servers.
 */
import { createHash } from 'node:crypto';
import type { GeneratedImage, ImageProvider, ImageRequest } from './provider';

/** 16:9, the stage's aspect. */
export const BACKGROUND_WIDTH = 1600;
export const BACKGROUND_HEIGHT = 900;
/** A standing figure: 2:5 portrait. */
export const SPRITE_WIDTH = 400;
export const SPRITE_HEIGHT = 1000;

/** Lines of the floor grid that run towards the vanishing point, on each side of the centre. */
const GRID_RAYS_PER_SIDE = 12;
/** Cross lines between the horizon and the bottom edge. */
const GRID_CROSS_LINES = 10;
/** The horizon sits between these fractions of the height, chosen by the name. */
const HORIZON_MIN = 0.42;
const HORIZON_SPAN = 0.16;
const LABEL_FONT_PX = 28;
const LABEL_MARGIN_PX = 24;
/** Longest label drawn; a longer name is cut with an ellipsis so it stays a small label. */
const LABEL_MAX_CHARS = 60;
const HUE_STEPS = 360;
const BYTE_RANGE = 256;

export class OfflineImageProvider implements ImageProvider {
	readonly id = 'offline';

	async generate(request: ImageRequest): Promise<GeneratedImage> {
		if (request.signal.aborted) throw request.signal.reason;
		const svg = request.kind === 'sprite' ? silhouetteSvg(request.subject) : gridBackdropSvg(request.subject);
		return { bytes: new TextEncoder().encode(svg), contentType: 'image/svg+xml' };
	}
}

interface Palette {
	hue: number;
	/** 0..1 from the name, for small variations (horizon height). */
	shade: number;
}

function palette(name: string): Palette {
	const digest = createHash('sha256').update(name, 'utf8').digest();
	const word = ((digest[0] ?? 0) << 8) | (digest[1] ?? 0);
	return { hue: word % HUE_STEPS, shade: (digest[2] ?? 0) / (BYTE_RANGE - 1) };
}

/** Fixed precision keeps the output identical across platforms and engines. */
const n = (x: number) => (Math.round(x * 10) / 10).toString();

export function gridBackdropSvg(name: string): string {
	const { hue, shade } = palette(name);
	const w = BACKGROUND_WIDTH;
	const h = BACKGROUND_HEIGHT;
	const horizon = h * (HORIZON_MIN + HORIZON_SPAN * shade);
	const vx = w / 2;
	const lines: string[] = [];
	// Rays from the vanishing point to well past the bottom corners, so the floor is covered edge to edge.
	const spread = (w * 2) / GRID_RAYS_PER_SIDE;
	for (let i = -GRID_RAYS_PER_SIDE; i <= GRID_RAYS_PER_SIDE; i++) {
		lines.push(`<line x1="${n(vx)}" y1="${n(horizon)}" x2="${n(vx + i * spread)}" y2="${n(h)}"/>`);
	}
	// Cross lines bunch up towards the horizon (quadratic spacing), which is what reads as depth.
	for (let k = 1; k <= GRID_CROSS_LINES; k++) {
		const y = horizon + (h - horizon) * (k / GRID_CROSS_LINES) ** 2;
		lines.push(`<line x1="0" y1="${n(y)}" x2="${w}" y2="${n(y)}"/>`);
	}
	const label = escapeXml(cut(name, LABEL_MAX_CHARS));
	return [
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}">`,
		`<title>${label}</title>`,
		'<defs>',
		`<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${hue},30%,12%)"/><stop offset="1" stop-color="hsl(${hue},35%,30%)"/></linearGradient>`,
		`<linearGradient id="floor" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${hue},40%,22%)"/><stop offset="1" stop-color="hsl(${hue},35%,10%)"/></linearGradient>`,
		'</defs>',
		`<rect width="${w}" height="${h}" fill="url(#sky)"/>`,
		`<rect y="${n(horizon)}" width="${w}" height="${n(h - horizon)}" fill="url(#floor)"/>`,
		`<g stroke="hsl(${hue},70%,70%)" stroke-opacity="0.45" stroke-width="2" fill="none">`,
		...lines,
		'</g>',
		`<line x1="0" y1="${n(horizon)}" x2="${w}" y2="${n(horizon)}" stroke="hsl(${hue},80%,80%)" stroke-opacity="0.7" stroke-width="3"/>`,
		`<text x="${LABEL_MARGIN_PX}" y="${h - LABEL_MARGIN_PX}" font-family="sans-serif" font-size="${LABEL_FONT_PX}" fill="#fff" fill-opacity="0.75">${label}</text>`,
		'</svg>',
		''
	].join('\n');
}

export function silhouetteSvg(name: string): string {
	const { hue } = palette(name);
	const w = SPRITE_WIDTH;
	const h = SPRITE_HEIGHT;
	const title = escapeXml(cut(name, LABEL_MAX_CHARS));
	// Coordinates in a 400 × 1000 box: head, neck, torso, two arms, two legs. No background shape:
	// the sprite's background stays transparent, like a generated one.
	return [
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}">`,
		`<title>${title}</title>`,
		`<g fill="hsl(${hue},25%,32%)" stroke="hsl(${hue},45%,65%)" stroke-width="4" stroke-linejoin="round">`,
		'<rect x="76" y="226" width="44" height="320" rx="22" transform="rotate(6 98 226)"/>',
		'<rect x="280" y="226" width="44" height="320" rx="22" transform="rotate(-6 302 226)"/>',
		'<rect x="130" y="490" width="66" height="470" rx="30"/>',
		'<rect x="204" y="490" width="66" height="470" rx="30"/>',
		'<path d="M118 218 Q200 196 282 218 L304 300 L278 530 L122 530 L96 300 Z"/>',
		'<rect x="178" y="168" width="44" height="48" rx="10"/>',
		'<ellipse cx="200" cy="110" rx="58" ry="70"/>',
		'</g>',
		'</svg>',
		''
	].join('\n');
}

function cut(text: string, max: number): string {
	const chars = [...text];
	return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

/** Control characters are not allowed in XML at all; the rest is escaped. */
function escapeXml(text: string): string {
	return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '').replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}
