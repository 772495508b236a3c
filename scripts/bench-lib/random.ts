/** Small deterministic PRNG (mulberry32): every bench run plays the same campaign. */
export type Rng = () => number;

export function prng(seed: number): Rng {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export function pick<T>(rnd: Rng, xs: readonly T[]): T {
	const x = xs[Math.floor(rnd() * xs.length)];
	if (x === undefined) throw new Error('pick from an empty list');
	return x;
}

/** An integer in [min, max], both included. */
export function between(rnd: Rng, min: number, max: number): number {
	return min + Math.floor(rnd() * (max - min + 1));
}
