/**
 * The drawn stand-ins of the stage, as SVG: a place's backdrop for its kind (a lamplit room, a
 * street at dusk, open country, the outdoors at night) and a character's silhouette. The stage draws
 * them while an image is on its way, and the offline image provider stores them as the images, so a
 * fresh install (no image service) still tells its places and people apart at a glance. Plain SVG:
 * no script, no style attribute, no external reference, the same output for the same input.
 */
import type { PlaceKind } from './place';
import { expressionMood, type Mood } from './moods';

export interface BackdropOptions {
	/** Prefix of the gradients' ids: unique among the SVGs of one page. */
	readonly idPrefix: string;
	/** 0..1: shifts the palette a little, so two places of one kind still differ. */
	readonly tint?: number | undefined;
}

const BACKDROP_WIDTH = 1600;
const BACKDROP_HEIGHT = 900;
/** How far (in degrees of hue) a tint moves a place's colours. */
const TINT_HUE_RANGE = 40;

const STARS: readonly (readonly [number, number, number])[] = [
	[120, 80, 2],
	[260, 160, 1.5],
	[410, 60, 2.5],
	[540, 210, 1.2],
	[700, 110, 2],
	[860, 40, 1.4],
	[990, 170, 2.2],
	[1130, 90, 1.5],
	[1290, 200, 1.8],
	[1440, 70, 2.4],
	[1530, 150, 1.3],
	[330, 260, 1.1],
	[780, 280, 1.3],
	[1210, 300, 1.2]
];
const WINDOWS: readonly (readonly [number, number])[] = [
	[150, 430],
	[210, 520],
	[470, 380],
	[530, 470],
	[1040, 410],
	[1100, 500],
	[1330, 450]
];

function hsl(h: number, s: number, l: number): string {
	return `hsl(${Math.round(((h % 360) + 360) % 360)},${s}%,${l}%)`;
}

function gradient(id: string, stops: readonly [number, string][], radial = false): string {
	const body = stops.map(([o, c]) => `<stop offset="${o}" stop-color="${c}"/>`).join('');
	return radial
		? `<radialGradient id="${id}" cx="0.62" cy="0.3" r="0.55">${body}</radialGradient>`
		: `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1">${body}</linearGradient>`;
}

function interior(id: (n: string) => string, shift: number): string {
	return [
		'<defs>',
		gradient(id('wall'), [
			[0, hsl(22 + shift, 40, 12)],
			[0.65, hsl(24 + shift, 44, 20)],
			[1, hsl(22 + shift, 40, 12)]
		]),
		`<radialGradient id="${id('lamp')}" cx="0.62" cy="0.3" r="0.55"><stop offset="0" \
stop-color="#ffcf7a" stop-opacity="0.75"/><stop offset="0.4" stop-color="#e08a3a" \
stop-opacity="0.25"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>`,
		gradient(id('window'), [
			[0, '#5d7ea8'],
			[1, '#223149']
		]),
		'</defs>',
		`<rect width="1600" height="900" fill="url(#${id('wall')})"/>`,
		`<rect x="230" y="170" width="260" height="330" rx="6" fill="url(#${id('window')})" opacity="0.85"/>`,
		'<path d="M230 335 H490 M360 170 V500" stroke="#1c120c" stroke-width="14"/>',
		...[0, 1, 2, 3, 4].map((i) => `<rect x="${-40 + i * 380}" y="40" width="30" height="640" fill="#1d120b" opacity="0.55"/>`),
		'<rect x="0" y="60" width="1600" height="34" fill="#1a100a" opacity="0.8"/>',
		`<rect x="0" y="680" width="1600" height="220" fill="${hsl(22 + shift, 42, 8)}"/>`,
		'<path d="M0 680 H1600" stroke="#7a4f2c" stroke-width="4" opacity="0.6"/>',
		'<path d="M990 94 V230" stroke="#120b07" stroke-width="5"/>',
		'<circle cx="990" cy="262" r="34" fill="#ffd890" opacity="0.9"/>',
		`<rect width="1600" height="900" fill="url(#${id('lamp')})"/>`
	].join('');
}

function street(id: (n: string) => string, shift: number): string {
	return [
		'<defs>',
		gradient(id('sky'), [
			[0, hsl(250 + shift, 30, 22)],
			[0.55, hsl(350 + shift, 28, 43)],
			[0.85, hsl(25 + shift, 70, 64)]
		]),
		'</defs>',
		`<rect width="1600" height="900" fill="url(#${id('sky')})"/>`,
		'<path d="M0 900 V420 H90 V330 H180 V380 H300 V260 L360 200 L420 260 V400 H560 V340 H650 V900 Z" fill="#1e1a26"/>',
		'<path d="M950 900 V380 H1020 V300 H1160 V360 H1260 V240 L1320 190 L1380 240 V330 H1500 V280 H1600 V900 Z" fill="#1e1a26"/>',
		'<path d="M640 900 V520 H700 V470 H760 V540 H900 V500 H960 V900 Z" fill="#2a2433"/>',
		...WINDOWS.map(([x, y]) => `<rect x="${x}" y="${y}" width="26" height="38" rx="3" fill="#ffcf6e" opacity="0.85"/>`),
		'<path d="M0 760 Q800 720 1600 760 V900 H0 Z" fill="#3a3340"/>',
		'<path d="M0 800 Q800 770 1600 800" stroke="#564c5c" stroke-width="3" fill="none"/>'
	].join('');
}

function night(id: (n: string) => string, shift: number): string {
	return [
		'<defs>',
		gradient(id('sky'), [
			[0, hsl(225 + shift, 60, 5)],
			[0.6, hsl(222 + shift, 55, 14)],
			[1, hsl(220 + shift, 45, 21)]
		]),
		`<radialGradient id="${id('moon')}" cx="0.5" cy="0.5" r="0.5"><stop offset="0.55" \
stop-color="#f3eed8"/><stop offset="1" stop-color="#f3eed8" stop-opacity="0"/></radialGradient>`,
		'</defs>',
		`<rect width="1600" height="900" fill="url(#${id('sky')})"/>`,
		...STARS.map(([x, y, r]) => `<circle cx="${x}" cy="${y}" r="${r}" fill="#dfe7ff" opacity="0.85"/>`),
		`<circle cx="1010" cy="150" r="90" fill="url(#${id('moon')})" opacity="0.9"/>`,
		'<path d="M0 900 V640 Q260 560 520 620 T1040 600 T1600 630 V900 Z" fill="#0b1222"/>',
		'<path d="M0 900 V720 Q400 680 800 720 T1600 700 V900 Z" fill="#060a15"/>'
	].join('');
}

function field(id: (n: string) => string, shift: number): string {
	return [
		'<defs>',
		gradient(id('sky'), [
			[0, hsl(208 + shift, 30, 60)],
			[0.6, hsl(190 + shift, 10, 81)],
			[1, hsl(45 + shift, 27, 79)]
		]),
		'</defs>',
		`<rect width="1600" height="900" fill="url(#${id('sky')})"/>`,
		`<path d="M0 620 Q300 470 620 560 T1220 520 T1600 560 V900 H0 Z" fill="${hsl(100 + shift, 8, 57)}" opacity="0.7"/>`,
		`<path d="M0 700 Q420 600 860 680 T1600 650 V900 H0 Z" fill="${hsl(95 + shift, 15, 38)}"/>`,
		`<path d="M0 790 Q600 740 1600 800 V900 H0 Z" fill="${hsl(90 + shift, 17, 25)}"/>`
	].join('');
}

const DRAW: Readonly<Record<PlaceKind, (id: (n: string) => string, shift: number) => string>> = { interior, street, night, field };

/** The backdrop as one `<svg>` element, 16:9, covering whatever box it is put in. */
export function backdropSvg(kind: PlaceKind, options: BackdropOptions): string {
	const id = (name: string) => `${options.idPrefix}-${name}`;
	const shift = ((options.tint ?? 0.5) - 0.5) * TINT_HUE_RANGE;
	return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${BACKDROP_WIDTH} ${BACKDROP_HEIGHT}" width="${BACKDROP_WIDTH}" height="${BACKDROP_HEIGHT}" \
preserveAspectRatio="xMidYMid slice">${DRAW[kind](id, shift)}</svg>`;
}

const FIGURE_WIDTH = 400;
const FIGURE_HEIGHT = 1000;

export interface FigureOptions {
	readonly idPrefix: string;
	/** The figure's hue (0..359): a colour of its own per character. */
	readonly hue?: number | undefined;
	/** The face it shows: read for its mood (`expressionMood`); no expression is a calm face. */
	readonly expression?: string | undefined;
}

/** A face in lines on the head (centre 200,122): brows, eyes, mouth, for each mood the figure can show. */
const FACES: Readonly<Record<Mood, readonly string[]>> = {
	neutral: [
		'M168 106 H188 M212 106 H232',
		'M178 118 m-6 0 a6 4 0 1 0 12 0 a6 4 0 1 0 -12 0 M222 118 m-6 0 a6 4 0 1 0 12 0 a6 4 0 1 0 -12 0',
		'M186 152 H214'
	],
	happy: [
		'M168 102 Q178 96 188 102 M212 102 Q222 96 232 102',
		'M170 120 Q178 110 186 120 M214 120 Q222 110 230 120',
		'M180 144 Q200 166 220 144'
	],
	sad: [
		'M168 108 L188 100 M212 100 L232 108',
		'M172 122 Q178 126 184 122 M216 122 Q222 126 228 122',
		'M184 158 Q200 146 216 158 M178 132 q-3 8 0 10 q3 -2 0 -10'
	],
	angry: ['M166 100 L190 112 M210 112 L234 100', 'M172 120 H186 M214 120 H228', 'M184 156 Q200 146 216 156'],
	surprised: [
		'M166 98 Q178 88 190 98 M210 98 Q222 88 234 98',
		'M178 118 m-8 0 a8 8 0 1 0 16 0 a8 8 0 1 0 -16 0 M222 118 m-8 0 a8 8 0 1 0 16 0 a8 8 0 1 0 -16 0',
		'M200 146 m-7 0 a7 10 0 1 0 14 0 a7 10 0 1 0 -14 0'
	],
	afraid: [
		'M168 106 L188 98 M212 98 L232 106',
		'M178 118 m-6 0 a6 6 0 1 0 12 0 a6 6 0 1 0 -12 0 M222 118 m-6 0 a6 6 0 1 0 12 0 a6 6 0 1 0 -12 0',
		'M182 154 q4.5 -6 9 0 t9 0 t9 0 t9 0'
	],
	thinking: ['M168 100 Q178 92 188 100 M212 106 H232', 'M172 118 H184 M216 118 H228', 'M190 154 L214 148']
};

/** The rim's colour for a mood (a tint the eye reads before the face): none for a calm face. */
const MOOD_RIMS: Readonly<Record<Mood, string | null>> = {
	neutral: null,
	happy: 'hsl(42,85%,66%)',
	sad: 'hsl(212,70%,66%)',
	angry: 'hsl(2,80%,60%)',
	surprised: 'hsl(55,90%,75%)',
	afraid: 'hsl(270,45%,72%)',
	thinking: 'hsl(170,45%,60%)'
};

/** How the head sits (a pose): bowed when sad or afraid, tilted when thinking, lifted when surprised. */
const HEAD_POSES: Readonly<Record<Mood, string>> = {
	neutral: '',
	happy: 'rotate(-4 200 190)',
	sad: 'translate(0 8) rotate(6 200 190)',
	angry: 'translate(0 4)',
	surprised: 'translate(0 -6)',
	afraid: 'translate(0 10) rotate(-3 200 190)',
	thinking: 'rotate(-9 200 190)'
};

/**
 * A standing figure in a long coat, dark with a rim of its own colour (or its mood's), on a transparent
 * background (like a generated sprite), 2:5 portrait. Its face shows the expression's mood: the brows,
 * eyes and mouth, the head's pose and the rim's tint, so two expressions differ at a glance.
 */
export function figureSvg(options: FigureOptions): string {
	const hue = options.hue ?? 220;
	const mood = expressionMood(options.expression);
	const id = (name: string) => `${options.idPrefix}-${name}`;
	const rim = MOOD_RIMS[mood] ?? `hsl(${hue},45%,68%)`;
	const pose = HEAD_POSES[mood];
	const face = FACES[mood].map((d) => `<path d="${d}"/>`).join('');
	return [
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${FIGURE_WIDTH} ${FIGURE_HEIGHT}" width="${FIGURE_WIDTH}" height="${FIGURE_HEIGHT}" \
data-mood="${mood}">`,
		`<defs><linearGradient id="${id('fill')}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" \
stop-color="hsl(${hue},22%,30%)"/><stop \
offset="0.55" stop-color="hsl(${hue},24%,18%)"/><stop \
offset="1" stop-color="hsl(${hue},26%,9%)"/></linearGradient></defs>`,
		`<g fill="url(#${id('fill')})" stroke="${rim}" stroke-opacity="${mood === 'neutral' ? 0.55 : 0.85}" stroke-width="3" stroke-linejoin="round">`,
		'<path d="M170 188 L230 188 L236 222 C300 232 336 262 344 320 L358 560 C360 592 334 598 328 566 L316 ' +
			'420 L314 600 L336 992 L64 992 L86 600 L84 420 L72 566 C66 598 40 592 42 560 L56 320 C64 262 100 232 ' +
			'164 222 Z"/>',
		`<g${pose ? ` transform="${pose}"` : ''}><ellipse cx="200" cy="122" rx="60" ry="72"/>`,
		`<g fill="none" stroke="hsl(${hue},30%,86%)" stroke-opacity="0.9" stroke-width="4" stroke-linecap="round">${face}</g></g>`,
		'</g>',
		'</svg>'
	].join('');
}

/** Control characters are not allowed in XML at all; the rest is escaped. */
export function escapeXml(text: string): string {
	return text
		.replace(/(?![\t\n\r\u007f-\u009f])[\p{Cc}\ufffe\uffff]/gu, '')
		.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}

/** A name or word cut to `max` characters (with an ellipsis), so it stays a small label. */
export function cutLabel(text: string, max: number): string {
	const chars = [...text];
	return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}
