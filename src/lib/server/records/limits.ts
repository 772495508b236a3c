/**
 * Size limits and checks shared by the record kinds. Callers (tools, routes, the CLI) validate their
 * own input shapes; these are the records' own invariants, checked whatever the caller.
 */
import { RecordError } from './errors';

/** Longest body of any one record (a whole world-setting document fits; a runaway model reply does not). */
export const MAX_BODY_CHARS = 200_000;
/** Longest name, title, key or speaker. */
export const MAX_NAME_CHARS = 200;
/** Longest caller-supplied reference id. */
const MAX_REF_CHARS = 200;

/** A body: any text up to MAX_BODY_CHARS, blank only when `allowBlank`. */
export function checkBody(body: string, what: string, allowBlank = false): string {
	if (!allowBlank && body.trim() === '') throw new RecordError('invalid_input', `${what} is empty; write the text to record.`);
	if (body.length > MAX_BODY_CHARS) {
		throw new RecordError(
			'invalid_input',
			`${what} is ${body.length} characters; the limit is ${MAX_BODY_CHARS}. Split it into several records.`
		);
	}
	return body;
}

/** A name, title or key: trimmed, non-empty, one line, at most MAX_NAME_CHARS. */
export function checkName(name: string, what: string): string {
	const trimmed = name.trim();
	if (trimmed === '') throw new RecordError('invalid_input', `${what} is empty; give it a name.`);
	if (trimmed.length > MAX_NAME_CHARS)
		throw new RecordError('invalid_input', `${what} is longer than ${MAX_NAME_CHARS} characters; use a shorter one.`);
	if (/[\r\n]/.test(trimmed)) throw new RecordError('invalid_input', `${what} must be a single line.`);
	return trimmed;
}

export function checkRef(ref: string | null | undefined): string | null {
	if (ref === undefined || ref === null) return null;
	if (ref.length > MAX_REF_CHARS) throw new RecordError('invalid_input', `ref is longer than ${MAX_REF_CHARS} characters.`);
	return ref;
}

/** Page sizes for list reads: a caller asking for "everything" still gets a bounded answer. */
export const MAX_LIST_LIMIT = 1000;

export function checkLimit(limit: number): number {
	if (!Number.isInteger(limit) || limit < 0) throw new RecordError('invalid_input', `limit must be a non-negative integer, got ${limit}.`);
	return Math.min(limit, MAX_LIST_LIMIT);
}
