/**
 * The token encoder is built when a server's app is built, not in its first turn: building it blocks
 * the process for a second or more (several under load), and a stall that long inside a turn outlasts
 * the HTTP keep-alive timeout, so a client polling the server meanwhile has its connection reset.
 * (This file has the module to itself: nothing else builds the encoder first.)
 */
import { describe, it, expect, afterEach } from 'vitest';
import { testEnv, type TestEnv } from '../../helpers/env';
import { tokenizerLoaded } from '../../../src/lib/server/context-window';

let env: TestEnv | undefined;
afterEach(async () => {
	await env?.cleanup();
	env = undefined;
});

describe('the token encoder at startup', () => {
	it('an app that will run turns (an LLM configured, the production counter) has the encoder built before any turn', async () => {
		expect(tokenizerLoaded()).toBe(false);
		env = await testEnv({
			KANTERA_LLM_PROVIDER: 'openai',
			KANTERA_LLM_MODEL: 'mock-model',
			// Never called: building the app makes no LLM request.
			OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
			OPENAI_API_KEY: 'unused-key'
		});
		expect(env.app.config.llm.configured).toBe(true);
		expect(tokenizerLoaded()).toBe(true);
	});
});
