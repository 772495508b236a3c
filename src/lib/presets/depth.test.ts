import { describe, expect, it } from 'vitest';
import { tooDeepAt } from './depth';

const nested = (levels: number): unknown => {
	let value: unknown = { hp: 1 };
	for (let i = 1; i < levels; i++) value = { a: value };
	return value;
};

describe('tooDeepAt', () => {
	it('finds the first object past the limit, by its dot path; scalars are no level', () => {
		expect(tooDeepAt(nested(3), 3)).toBeUndefined();
		expect(tooDeepAt(nested(4), 3)).toBe('a.a.a');
		expect(tooDeepAt({ list: [1, [2]] }, 3)).toBeUndefined();
		expect(tooDeepAt({ list: [1, [2, [3]]] }, 3)).toBe('list.1.1');
		expect(tooDeepAt('text', 0)).toBeUndefined();
		expect(tooDeepAt([], 0)).toBe('');
	});

	it('walks a value nested far deeper than the stack would allow', () => {
		expect(tooDeepAt(nested(100_000), 40)?.split('.')).toHaveLength(40);
	});
});
