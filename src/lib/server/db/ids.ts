import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
/** Play session ids: 20 base32 characters (100 random bits). The only shape allowed into a path or URL. */
const SESSION_ID_PATTERN = /^[a-z2-7]{20}$/;

/** A random lowercase base32 id; lowercase keeps ids safe on case-insensitive file systems. */
export function newId(length = 20): string {
	const bytes = randomBytes(length);
	let out = '';
	for (let i = 0; i < length; i++) out += ALPHABET.charAt((bytes[i] ?? 0) & 31);
	return out;
}

export function isSessionId(id: unknown): id is string {
	return typeof id === 'string' && SESSION_ID_PATTERN.test(id);
}
