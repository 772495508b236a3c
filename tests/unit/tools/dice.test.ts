import { describe, it, expect } from 'vitest';
import { parseDice, rollDice, DiceNotationError, MAX_DICE } from '../../../src/lib/server/tools/dice';

/** A scripted RNG returning the given faces in order. */
function faces(...values: number[]) {
	let i = 0;
	return (min: number, max: number) => {
		const f = values[i++ % values.length] ?? min;
		if (f < min || f >= max) throw new Error(`face ${f} outside [${min}, ${max})`);
		return f;
	};
}

describe('dice notation', () => {
	it('parses sums of dice and constants', () => {
		expect(parseDice('2d6+1d4-2')).toEqual([
			{ sign: 1, count: 2, sides: 6 },
			{ sign: 1, count: 1, sides: 4 },
			{ sign: -1, value: 2 }
		]);
		expect(parseDice('d%')).toEqual([{ sign: 1, count: 1, sides: 100 }]);
		expect(parseDice(' 4D6kh3 ')).toEqual([{ sign: 1, count: 4, sides: 6, keep: { mode: 'kh', n: 3 } }]);
	});

	it('rejects malformed or oversized notation with a readable message', () => {
		for (const bad of ['', 'roll a d20', '2d', 'd1', `${MAX_DICE + 1}d6`, '2d6 3', '4d6kh5', '1d6+'.repeat(11) + '1']) {
			expect(() => parseDice(bad), bad).toThrow(DiceNotationError);
		}
	});

	it('sums kept dice and modifiers', () => {
		expect(rollDice('2d6+3', faces(4, 5)).total).toBe(12);
		const r = rollDice('4d6kh3', faces(1, 6, 3, 5));
		expect(r.total).toBe(14);
		expect(r.rolls[0]?.dice).toEqual([1, 6, 3, 5]);
		expect(rollDice('2d20kl1', faces(17, 4)).total).toBe(4);
		expect(rollDice('4d6dl1', faces(2, 2, 6, 6)).total).toBe(14);
		expect(rollDice('1d8-1d4', faces(8, 3)).total).toBe(5);
	});

	it('uses the cryptographic RNG by default, within bounds and covering every face', () => {
		const seen = new Set<number>();
		for (let i = 0; i < 600; i++) {
			const t = rollDice('1d6').total;
			expect(t).toBeGreaterThanOrEqual(1);
			expect(t).toBeLessThanOrEqual(6);
			seen.add(t);
		}
		expect(seen.size).toBe(6);
	});
});
