/** Random secrets and their stored digests. Only digests ever reach the database. */
import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes: 256 bits, far beyond guessing. */
const SECRET_BYTES = 32;

export function randomSecret(): string {
	return randomBytes(SECRET_BYTES).toString('base64url');
}

/**
 * SHA-256 is enough for these secrets (unlike passwords): they are long and random, so a leaked digest
 * cannot be reversed by guessing.
 */
export function sha256Hex(secret: string): string {
	return createHash('sha256').update(secret).digest('hex');
}
