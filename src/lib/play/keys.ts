/**
 * Idempotency keys for turn submissions: one per submission, so a double click or a resent form
 * posts the same key and the server starts the turn once. `getRandomValues` works on plain-HTTP
 * LAN addresses too, where `crypto.randomUUID` is not available.
 */
const KEY_BYTES = 16;

export function newIdempotencyKey(): string {
	const bytes = new Uint8Array(KEY_BYTES);
	crypto.getRandomValues(bytes);
	return `turn-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
