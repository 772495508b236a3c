import { describe, it, expect } from 'vitest';
import { hashPassword, verifyPassword } from '../../../src/lib/server/auth';

describe('password hashing (scrypt)', () => {
	it('stores scrypt$N$r$p$salt$hash and verifies only the right password', async () => {
		const stored = await hashPassword('correct horse battery');
		const parts = stored.split('$');
		expect(parts).toHaveLength(6);
		expect(parts.slice(0, 4)).toEqual(['scrypt', String(2 ** 15), '8', '1']);
		expect(stored).not.toContain('correct horse battery');
		expect(await verifyPassword('correct horse battery', stored)).toBe(true);
		expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
		expect(await verifyPassword('', stored)).toBe(false);
	});

	it('salts every hash', async () => {
		const a = await hashPassword('same password');
		const b = await hashPassword('same password');
		expect(a).not.toBe(b);
		expect(await verifyPassword('same password', b)).toBe(true);
	});

	it('never matches a malformed or tampered stored hash', async () => {
		const stored = await hashPassword('password123');
		const parts = stored.split('$');
		expect(await verifyPassword('password123', 'plain-text')).toBe(false);
		expect(await verifyPassword('password123', ['bcrypt', ...parts.slice(1)].join('$'))).toBe(false);
		// A cost far beyond the bound would exhaust memory: refused rather than computed.
		expect(await verifyPassword('password123', ['scrypt', String(2 ** 30), ...parts.slice(2)].join('$'))).toBe(false);
		expect(await verifyPassword('password123', ['scrypt', '1000', ...parts.slice(2)].join('$'))).toBe(false);
		const flipped = parts
			.slice(0, 5)
			.concat(Buffer.from('x'.repeat(32)).toString('base64url'))
			.join('$');
		expect(await verifyPassword('password123', flipped)).toBe(false);
	});
});
