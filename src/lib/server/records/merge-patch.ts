/**
 * JSON values and RFC 7396 JSON Merge Patch.
 */
type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
	[key: string]: JsonValue;
}

export function isJsonObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether `value` is a tree of plain JSON (what `JSON.parse` can produce): no undefined, functions,
 * class instances or non-finite numbers, which would not survive a round trip through the database.
 */
export function isJsonValue(value: unknown): value is JsonValue {
	if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
	if (typeof value === 'number') return Number.isFinite(value);
	if (Array.isArray(value)) return value.every(isJsonValue);
	if (typeof value !== 'object') return false;
	const proto: unknown = Object.getPrototypeOf(value);
	if (proto !== Object.prototype && proto !== null) return false;
	return Object.values(value).every(isJsonValue);
}

/**
 * Applies `patch` to `target` as RFC 7396 §2 describes: objects merge key by key, `null` deletes a
 * key, anything else (arrays included) replaces. Pure: neither argument is modified.
 */
export function mergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
	if (!isJsonObject(patch)) return patch;
	const result: JsonObject = isJsonObject(target) ? { ...target } : {};
	for (const [key, value] of Object.entries(patch)) {
		if (value === null) Reflect.deleteProperty(result, key);
		// defineProperty, not assignment: a key named `__proto__` must stay a plain key.
		else
			Object.defineProperty(result, key, { value: mergePatch(result[key], value), enumerable: true, writable: true, configurable: true });
	}
	return result;
}
