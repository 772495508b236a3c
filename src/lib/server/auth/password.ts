/**
 * Password hashing with Node's built-in scrypt (memory-hard, no native dependency).
 * Stored form: `scrypt$N$r$p$salt$hash` (salt and hash base64url), so the cost can be raised later
 * and old hashes still verify with the parameters they were made with.
 */
import { scrypt, randomBytes, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** Cost 2^15 with r=8 needs 32 MiB per hash: slow for a GPU farm, ~50–100 ms here. */
const SCRYPT_N = 2 ** 15;
const SCRYPT_R = 8;
const SCRYPT_P = 1;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Largest cost a stored hash may ask for: a tampered row must not be able to exhaust memory. */
const MAX_N = 2 ** 20;
const MAX_R = 16;
const MAX_P = 4;
/** scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is exactly our need, so leave headroom. */
const maxmemFor = (n: number, r: number) => 128 * n * r * 2;

function scryptAsync(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		scrypt(password.normalize('NFKC'), salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key)));
	});
}

export async function hashPassword(password: string): Promise<string> {
	const salt = randomBytes(SALT_BYTES);
	const key = await scryptAsync(password, salt, KEY_BYTES, {
		N: SCRYPT_N,
		r: SCRYPT_R,
		p: SCRYPT_P,
		maxmem: maxmemFor(SCRYPT_N, SCRYPT_R)
	});
	return ['scrypt', SCRYPT_N, SCRYPT_R, SCRYPT_P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface ParsedHash {
	n: number;
	r: number;
	p: number;
	salt: Buffer;
	key: Buffer;
}

function parseHash(stored: string): ParsedHash | null {
	const parts = stored.split('$');
	if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
	const [, nText, rText, pText, saltText, keyText] = parts;
	const n = Number(nText);
	const r = Number(rText);
	const p = Number(pText);
	const isPowerOfTwo = Number.isInteger(n) && n > 1 && (n & (n - 1)) === 0;
	if (!isPowerOfTwo || n > MAX_N) return null;
	if (!Number.isInteger(r) || r < 1 || r > MAX_R || !Number.isInteger(p) || p < 1 || p > MAX_P) return null;
	const salt = Buffer.from(saltText ?? '', 'base64url');
	const key = Buffer.from(keyText ?? '', 'base64url');
	if (salt.length === 0 || key.length === 0) return null;
	return { n, r, p, salt, key };
}

/** Constant-time check of `password` against a stored hash. A malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
	const parsed = parseHash(stored);
	if (!parsed) return false;
	const key = await scryptAsync(password, parsed.salt, parsed.key.length, {
		N: parsed.n,
		r: parsed.r,
		p: parsed.p,
		maxmem: maxmemFor(parsed.n, parsed.r)
	});
	return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/**
 * A valid hash of a random password, computed once. Checking a password against it when the user does
 * not exist makes "unknown user" take as long as "wrong password".
 */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
	dummyHash ??= hashPassword(randomBytes(KEY_BYTES).toString('base64url'));
	return dummyHash;
}
