/** A play session wired to the scripted mock LLM, with the real SDKs, real libSQL files and the real runner. */
import { eq, asc } from 'drizzle-orm';
import { startMockLlm, type MockLlm } from '../mock-llm';
import { parseConfig } from '../../src/lib/server/config';
import { createApp, type App, type AppOverrides } from '../../src/lib/server/app';
import { createProvider, type LlmTimeouts } from '../../src/lib/server/llm';
import { newId, sessionSchema, type SessionDb } from '../../src/lib/server/db';
import { acceptTurn, type TurnRow } from '../../src/lib/server/turn';
import { composeMission, ensureMission, writeSettings } from '../../src/lib/server/session-setup';
import type { TokenCounter } from '../../src/lib/server/context-window';
import { tempDir } from './env';
import { databaseEnv } from './databases';
import type { Language, ProviderName } from '../../src/lib/types/settings';

/** The LLM vendor a test's mock speaks for: one of the app's providers. */
export type Vendor = ProviderName;

const MOCK_KEYS: Record<Vendor, string> = { openai: 'sk-test', anthropic: 'sk-ant-test', google: 'google-test-key' };
const ENV_PREFIX: Record<Vendor, string> = { openai: 'OPENAI', anthropic: 'ANTHROPIC', google: 'GOOGLE' };

function mockUrl(vendor: Vendor, mock: MockLlm): string {
	return vendor === 'openai' ? mock.openaiBaseUrl : vendor === 'anthropic' ? mock.anthropicBaseUrl : mock.googleBaseUrl;
}

export interface TurnHarness {
	app: App;
	mock: MockLlm;
	sessionId: string;
	userId: string;
	mission: string;
	/** Accepts a turn and waits until the runner has finished everything it queued. */
	play(text: string, key?: string): Promise<TurnRow>;
	use<T>(fn: (s: SessionDb) => Promise<T>): Promise<T>;
	turns(): Promise<TurnRow[]>;
	cleanup: () => Promise<void>;
}

export interface MockLlmApp {
	app: App;
	mock: MockLlm;
	cleanup: () => Promise<void>;
}

export interface MockLlmAppOptions {
	countTokens?: TokenCounter;
	/** The provider's own clocks; fast by default (see below). */
	timeouts?: Partial<LlmTimeouts>;
	/** An existing data directory (a second app on the same databases); a fresh temp dir otherwise. */
	dataDir?: string;
	/** An already running mock LLM to share; its owner closes it. */
	mock?: MockLlm;
	/** More of the app's parts (a request-scoped scheduler, an image provider…); built from the settings otherwise. */
	overrides?: Pick<AppOverrides, 'scheduler' | 'images' | 'eventFeeds'>;
}

/** An app whose LLM is the scripted mock (real SDKs, fast retries and timeouts), on real libSQL files in a temp dir. */
export async function mockLlmApp(vendor: Vendor, env: Record<string, string> = {}, opts: MockLlmAppOptions = {}): Promise<MockLlmApp> {
	const mock = opts.mock ?? (await startMockLlm());
	const { dir, remove } = opts.dataDir === undefined ? tempDir() : { dir: opts.dataDir, remove: () => undefined };
	const cfg = parseConfig({
		...databaseEnv(dir),
		KANTERA_LLM_PROVIDER: vendor,
		KANTERA_LLM_MODEL: 'mock-model',
		// Only the chosen vendor is configured (the API refuses the others); the provider factory below reaches all three.
		[ENV_PREFIX[vendor] + '_BASE_URL']: mockUrl(vendor, mock),
		[ENV_PREFIX[vendor] + '_API_KEY']: MOCK_KEYS[vendor],
		// The mock model reads any length, as the vendors' large models do: the requests' bytes show they fit and
		// nothing is counted. Tests of the context ceiling set their own (an unknown model would get 8k).
		KANTERA_CONTEXT_TOKENS: '1000000',
		...env
	});
	const app = await createApp(cfg, {
		// Fast retries and timeouts so fault tests take milliseconds, not the production seconds.
		provider: (name) =>
			createProvider({
				provider: name,
				apiKey: MOCK_KEYS[name],
				baseUrl: mockUrl(name, mock),
				retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 },
				timeouts: { requestMs: 2_000, idleMs: 1_000, deadlineMs: 5_000, ...opts.timeouts }
			}),
		...(opts.countTokens ? { countTokens: opts.countTokens } : {}),
		...opts.overrides
	});
	return {
		app,
		mock,
		async cleanup() {
			await app.close();
			if (!opts.mock) await mock.close();
			remove();
		}
	};
}

export async function turnHarness(
	vendor: Vendor,
	env: Record<string, string> = {},
	opts: MockLlmAppOptions & { language?: Language } = {}
): Promise<TurnHarness> {
	const { app, mock, cleanup } = await mockLlmApp(vendor, env, opts);
	const sessionId = newId();
	const userId = newId();
	const mission = composeMission(opts.language ?? 'en', 'Keep the tone of a gaslit mystery.');
	await app.sessions.create(sessionId);
	await app.sessions.use(sessionId, (s) =>
		s.write(async (tx) => {
			await ensureMission(tx, mission);
			await writeSettings(tx, { language: opts.language ?? 'en' });
		})
	);
	const use = <T>(fn: (s: SessionDb) => Promise<T>) => app.sessions.use(sessionId, fn);
	const turns = () => use((s) => s.db.select().from(sessionSchema.turns).orderBy(asc(sessionSchema.turns.createdAt)));
	return {
		app,
		mock,
		sessionId,
		userId,
		mission,
		async play(text, key = newId()) {
			const accepted = await use((s) => acceptTurn(app, s, { userId, text, idempotencyKey: key }));
			app.runner.kick(sessionId);
			await app.runner.idle();
			// The commit kicked the image jobs it ordered; let them finish so tests read a settled session.
			await app.images.idle();
			const [row] = await use((s) => s.db.select().from(sessionSchema.turns).where(eq(sessionSchema.turns.id, accepted.turnId)));
			if (!row) throw new Error('turn vanished');
			return row;
		},
		use,
		turns,
		cleanup
	};
}

/** Waits until the runner (embedding included) and the image jobs have nothing left to do. */
export async function settled(h: TurnHarness): Promise<void> {
	await h.app.runner.idle();
	await h.app.images.idle();
	await h.app.runner.idle();
}
