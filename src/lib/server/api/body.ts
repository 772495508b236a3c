/**
 * Request bodies: JSON only, checked with a valibot schema before any handler sees them. Requiring the
 * JSON content type also keeps cross-site forms out: a browser can't send it cross-origin without a
 * CORS preflight, which this API never grants (SvelteKit's CSRF check covers the form types).
 */
import * as v from 'valibot';
import { ApiError, badRequest } from './errors';
import { fieldProblems } from './field-problems';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Reads and validates a JSON object body; 415 for another content type, 400 for malformed JSON or a body the schema refuses. */
export async function readJson<S extends v.GenericSchema>(request: Request, schema: S): Promise<v.InferOutput<S>> {
	const type = request.headers.get('content-type') ?? '';
	if (!JSON_TYPE.test(type)) {
		throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with "content-type: application/json".');
	}
	const text = await request.text();
	let data: unknown;
	try {
		data = JSON.parse(text);
	} catch {
		throw badRequest('The body is not valid JSON.', 'MALFORMED_JSON');
	}
	// valibot's object schemas take arrays too (they are objects); every body of this API is a JSON object.
	if (typeof data !== 'object' || data === null || Array.isArray(data)) throw badRequest('The body must be a JSON object.', 'INVALID_BODY');
	return parseWith(schema, data, 'INVALID_BODY');
}

/** Validates outside data; a failure is a 400 naming the field and what is wrong with it, in words and as `fields`. */
export function parseWith<S extends v.GenericSchema>(schema: S, data: unknown, code: string): v.InferOutput<S> {
	const result = v.safeParse(schema, data);
	if (result.success) return result.output;
	throw new ApiError(400, code, describeIssues(result.issues), { body: { fields: fieldProblems(result.issues) } });
}

function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
	return issues
		.slice(0, 3)
		.map((issue) => {
			const path = v.getDotPath(issue);
			return path ? `${path}: ${issue.message}` : issue.message;
		})
		.join('; ');
}

/** Query parameters as a plain object (the last value wins for a repeated name), ready for a schema. */
export function queryOf(url: URL): Record<string, string> {
	return Object.fromEntries(url.searchParams.entries());
}

/** A query or header value that must be a non-negative integer id. */
export const IdString = v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'must be a non-negative integer'), v.transform(Number));

/** A `?limit=` parameter: 1…max, `fallback` when absent. */
export function limitParam(max: number, fallback: number) {
	return v.optional(
		v.pipe(
			v.string(),
			v.regex(/^\d{1,6}$/, 'must be a whole number'),
			v.transform(Number),
			v.minValue(1, 'must be at least 1'),
			v.maxValue(max, `must be at most ${max}`)
		),
		String(fallback)
	);
}
