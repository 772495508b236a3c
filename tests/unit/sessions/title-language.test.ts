import { describe, it, expect, afterEach } from 'vitest';
import { testEnv, type TestEnv } from '../../helpers/env';
import { createUser } from '../../../src/lib/server/auth';
import {
	createPlaySession,
	listPlaySessions,
	PlaySessionValidationError,
	renamePlaySession,
	TITLE_MAX
} from '../../../src/lib/server/sessions';

let env: TestEnv | undefined;
afterEach(async () => {
	await env?.cleanup();
	env = undefined;
});

/** The title's field error for `title`, or null when the session was created. */
async function titleError(e: TestEnv, ownerId: string, title: string, readerLanguage?: 'en' | 'ja') {
	try {
		await createPlaySession(e.app, { ownerId, title, language: 'en', readerLanguage });
		return null;
	} catch (err) {
		if (err instanceof PlaySessionValidationError) return err.fields.title;
		throw err;
	}
}

describe('the session title field errors in the reader language', () => {
	it('words them in Japanese for a Japanese reader, in English otherwise, and creates nothing', async () => {
		env = await testEnv();
		const alice = await createUser(env.app, { name: 'alice', password: 'wonderland' });
		const long = 'x'.repeat(TITLE_MAX + 1);

		expect(await titleError(env, alice.id, 'a\u0000b', 'ja')).toBe(
			'タイトルに制御文字（NUL など）が入っています。使えるのはタブと改行だけです。'
		);
		expect(await titleError(env, alice.id, '   ', 'ja')).toBe('タイトルを入力してください。');
		expect(await titleError(env, alice.id, long, 'ja')).toBe(`タイトルは ${TITLE_MAX} 文字までです。`);

		// The API and the CLI pass no reader language: English, as before.
		expect(await titleError(env, alice.id, 'a\u0000b')).toBe(
			'The title contains a control character (such as NUL); only tabs and line breaks are allowed.'
		);
		expect(await titleError(env, alice.id, '   ', 'en')).toBe('Enter a title.');
		expect(await titleError(env, alice.id, long)).toBe(`A title has at most ${TITLE_MAX} characters.`);

		expect(await listPlaySessions(env.app, alice.id)).toEqual([]);
	});

	it('words a rename refused in the reader language and keeps the old title', async () => {
		env = await testEnv();
		const alice = await createUser(env.app, { name: 'alice', password: 'wonderland' });
		const s = await createPlaySession(env.app, { ownerId: alice.id, title: 'Old', language: 'en' });
		const refused = renamePlaySession(env.app, alice.id, s.id, 'a\u0007b', Date.now(), 'ja');
		await expect(refused).rejects.toMatchObject({
			fields: { title: 'タイトルに制御文字（NUL など）が入っています。使えるのはタブと改行だけです。' }
		});
		expect((await listPlaySessions(env.app, alice.id)).map((x) => x.title)).toEqual(['Old']);
	});
});
