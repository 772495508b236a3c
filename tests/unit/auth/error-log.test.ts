import { describe, it, expect } from 'vitest';
import { describeError } from '../../../src/lib/server/hooks/errors';

describe('error logging', () => {
	it('keeps names, messages and stack frames but drops query parameters', () => {
		const driver = new Error('SQLITE_CONSTRAINT: UNIQUE constraint failed: users.name');
		const wrapped = new Error(
			'Failed query: insert into "api_tokens" values (?, ?, ?)\nparams: abc,kt_SECRETSECRET,scrypt$32768$8$1$salt$hash',
			{ cause: driver }
		);
		const text = describeError(wrapped);
		expect(text).toContain('Failed query: insert into "api_tokens"');
		expect(text).toContain('caused by Error: SQLITE_CONSTRAINT: UNIQUE constraint failed: users.name');
		expect(text).toMatch(/\n\s*at /);
		expect(text).not.toContain('kt_SECRET');
		expect(text).not.toContain('scrypt$');
	});

	it('describes non-Error throws without printing them', () => {
		expect(describeError({ password: 'hunter22' })).not.toContain('hunter22');
	});
});
