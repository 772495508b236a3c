/**
 * Dice notation and a cryptographic RNG. Supports `NdS`, `dS`, `d%`, keep/drop highest/lowest
 * (`4d6kh3`, `2d20kl1`, `4d6dl1`), and sums with constants (`2d6+1d4-2`).
 */
import { randomInt } from 'node:crypto';

export const MAX_DICE = 100;
const MAX_SIDES = 1000;
const MAX_TERMS = 10;

const KEEP_MODES = ['kh', 'kl', 'dh', 'dl'] as const;
type KeepMode = (typeof KEEP_MODES)[number];
const isKeepMode = (s: string | undefined): s is KeepMode => KEEP_MODES.some((m) => m === s);

interface DieTerm {
	sign: 1 | -1;
	count: number;
	sides: number;
	keep?: { mode: KeepMode; n: number };
}
interface ConstTerm {
	sign: 1 | -1;
	value: number;
}
export type Term = DieTerm | ConstTerm;

export class DiceNotationError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'DiceNotationError';
	}
}

const TERM = /([+-])?\s*(?:(\d*)d(\d+|%)(?:(kh|kl|dh|dl)(\d+))?|(\d+))/giy;

export function parseDice(notation: string): Term[] {
	const text = notation.trim().toLowerCase();
	if (!text) throw new DiceNotationError('empty dice notation');
	const terms: Term[] = [];
	TERM.lastIndex = 0;
	let pos = 0;
	while (pos < text.length) {
		while (text[pos] === ' ') pos++;
		TERM.lastIndex = pos;
		const m = TERM.exec(text);
		if (!m || m[0].trim() === '')
			throw new DiceNotationError(`cannot read "${text.slice(pos)}" in "${notation}"; use forms like 2d6+1, d20, 4d6kh3, d%`);
		if (terms.length > 0 && !m[1]) throw new DiceNotationError(`missing + or - before "${m[0].trim()}"`);
		const sign = m[1] === '-' ? -1 : 1;
		if (m[6] !== undefined) {
			terms.push({ sign, value: Number(m[6]) });
		} else {
			const count = m[2] ? Number(m[2]) : 1;
			const sides = m[3] === '%' ? 100 : Number(m[3]);
			if (count < 1 || count > MAX_DICE) throw new DiceNotationError(`dice count must be 1–${MAX_DICE}`);
			if (sides < 2 || sides > MAX_SIDES) throw new DiceNotationError(`dice sides must be 2–${MAX_SIDES}`);
			const term: DieTerm = { sign, count, sides };
			const mode = m[4];
			if (isKeepMode(mode)) {
				const n = Number(m[5]);
				if (n < 1 || n > count) throw new DiceNotationError(`${mode}${n}: must keep/drop between 1 and ${count} dice`);
				term.keep = { mode, n };
			}
			terms.push(term);
		}
		pos = TERM.lastIndex;
		if (terms.length > MAX_TERMS) throw new DiceNotationError(`at most ${MAX_TERMS} terms`);
	}
	return terms;
}

export interface RollResult {
	notation: string;
	total: number;
	rolls: { term: string; dice: number[]; kept: number[] }[];
	modifier: number;
}

export type Rng = (minInclusive: number, maxExclusive: number) => number;

export function rollDice(notation: string, rng: Rng = randomInt): RollResult {
	const terms = parseDice(notation);
	let total = 0;
	let modifier = 0;
	const rolls: RollResult['rolls'] = [];
	for (const t of terms) {
		if ('value' in t) {
			modifier += t.sign * t.value;
			continue;
		}
		const dice = Array.from({ length: t.count }, () => rng(1, t.sides + 1));
		let kept = dice;
		if (t.keep) {
			const sorted = [...dice].sort((a, b) => a - b);
			const { mode, n } = t.keep;
			kept = mode === 'kh' ? sorted.slice(-n) : mode === 'kl' ? sorted.slice(0, n) : mode === 'dh' ? sorted.slice(0, -n) : sorted.slice(n);
		}
		const sum = kept.reduce((a, b) => a + b, 0);
		total += t.sign * sum;
		rolls.push({ term: `${t.sign < 0 ? '-' : ''}${t.count}d${t.sides}${t.keep ? `${t.keep.mode}${t.keep.n}` : ''}`, dice, kept });
	}
	return { notation: notation.trim(), total: total + modifier, rolls, modifier };
}
