/** Seeded randomness for the property tests: a failure names its seed and replays exactly. */

export interface Random {
	/** Integer in [0, n). */
	int(n: number): number;
	pick<T>(items: readonly T[]): T;
	chance(p: number): boolean;
}

/** mulberry32: small, fast, good enough to shuffle test inputs. */
export function seeded(seed: number): Random {
	let a = seed >>> 0;
	const next = (): number => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	const int = (n: number): number => Math.floor(next() * n);
	return {
		int,
		pick<T>(items: readonly T[]): T {
			if (items.length === 0) throw new Error('pick from an empty list');
			// The index is in range, so the element exists even when it is `undefined` on purpose.
			return items[int(items.length)] as T;
		},
		chance: (p) => next() < p
	};
}
