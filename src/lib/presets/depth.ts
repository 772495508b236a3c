/**
 * How deeply a preset's JSON may nest. Measuring a value, storing it or showing it walks it recursively
 * (JSON.stringify, the schema's checks), and a state nested a few thousand levels deep (a few tens of
 * kilobytes) overflows the stack there: such input is refused by its depth first, with a walk that
 * keeps its own stack.
 */

/** Levels of objects and arrays inside one another in the opening state: far more than a state record needs. */
export const MAX_STATE_DEPTH = 32;
/** Levels in a whole preset as it arrives (a form, an API body, an imported file): the state's, and the fields around it. */
export const MAX_PRESET_DEPTH = MAX_STATE_DEPTH + 8;

/**
 * The dot path of the first object or array in `value` that sits deeper than `max` levels (the value
 * itself, when an object or array, is level 1), or undefined when there is none.
 */
export function tooDeepAt(value: unknown, max: number): string | undefined {
	const stack: { value: unknown; depth: number; path: string }[] = [{ value, depth: 1, path: '' }];
	for (let next = stack.pop(); next; next = stack.pop()) {
		if (typeof next.value !== 'object' || next.value === null) continue;
		if (next.depth > max) return next.path;
		for (const [key, inner] of Object.entries(next.value))
			if (typeof inner === 'object' && inner !== null)
				stack.push({ value: inner, depth: next.depth + 1, path: next.path === '' ? key : `${next.path}.${key}` });
	}
	return undefined;
}
