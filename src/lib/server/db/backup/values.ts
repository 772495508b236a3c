/**
 * SQLite values in an export line, typed without loss: JSON numbers are integers (64-bit ones outside
 * JavaScript's safe range as `{"i": "…"}`), REALs are `{"f": n}`, blobs `{"b": base64}`, text a string.
 */
import * as v from 'valibot';
import type { InValue } from '@libsql/client';

export type ExportValue = null | number | string | { i: string } | { f: number | string } | { b: string };

export const ExportValueSchema = v.union([
	v.null(),
	v.pipe(v.number(), v.integer()),
	v.string(),
	v.strictObject({ i: v.pipe(v.string(), v.regex(/^-?\d+$/)) }),
	v.strictObject({ f: v.union([v.number(), v.picklist(['Infinity', '-Infinity', 'NaN'])]) }),
	v.strictObject({ b: v.string() })
]);

export function encodeValue(value: unknown): ExportValue {
	if (value === null || value === undefined) return null;
	if (typeof value === 'bigint')
		return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : { i: value.toString() };
	if (typeof value === 'number') return { f: Number.isFinite(value) ? value : String(value) };
	if (typeof value === 'string') return value;
	if (value instanceof ArrayBuffer) return { b: Buffer.from(value).toString('base64') };
	if (value instanceof Uint8Array) return { b: Buffer.from(value).toString('base64') };
	throw new Error(`cannot export a ${typeof value} value`);
}

export function decodeValue(value: v.InferOutput<typeof ExportValueSchema>): InValue {
	if (value === null || typeof value === 'string') return value;
	if (typeof value === 'number') return BigInt(value);
	if ('i' in value) return BigInt(value.i);
	if ('f' in value) return typeof value.f === 'number' ? value.f : Number(value.f);
	return new Uint8Array(Buffer.from(value.b, 'base64'));
}
