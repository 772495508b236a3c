/**
 * Shared bench set-up: a temp data directory, a config that points the app at a (fake) OpenAI key so
 * turns are accepted, and a session seeded like a real campaign start: mission, language, a world
 * document (its table of contents is in every context) and a starting state.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { parseConfig, type Config } from '../../src/lib/server/config';
import { createProvider, type LlmProvider, type ProviderName } from '../../src/lib/server/llm';
import { configureLog } from '../../src/lib/server/ops';
import type { Language } from '../../src/lib/types/settings';
import { newId, sessionSchema, type SessionDb, type SessionDbPool } from '../../src/lib/server/db';
import { documents, state } from '../../src/lib/server/records';
import { acceptTurn, type AcceptDeps, type TurnRow, type TurnRunner } from '../../src/lib/server/turn';
import { composeMission, ensureMission, writeSettings } from '../../src/lib/server/session-setup';

/**
 * The real provider against the mock LLM's OpenAI-compatible endpoint, with no retries: what the app
 * built by `createApp` for a bench calls (the real SDK and wire format, a local server).
 */
export function mockProvider(baseUrl: string): (name: ProviderName) => LlmProvider {
	return (name) =>
		createProvider({
			provider: name,
			apiKey: 'sk-bench',
			baseUrl,
			retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 },
			timeouts: { requestMs: 10_000, idleMs: 10_000, deadlineMs: 30_000 }
		});
}

/** Priced in the default table; the fake key is never used (the provider is injected). */
export const BENCH_MODEL = 'gpt-4.1-mini';

export function tempDataDir(prefix: string): { dir: string; remove: () => void } {
	const dir = mkdtempSync(path.join(tmpdir(), prefix));
	return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The app's configuration for a bench. Its log lines (one a turn, one a request) would bury the bench's
 * own output, so the level is `warn` (warnings and errors only) unless the run sets KANTERA_LOG_LEVEL
 * (`KANTERA_LOG_LEVEL=info npm run bench:turn` shows them); KANTERA_LOG_FORMAT is taken from the run too.
 */
export function benchConfig(dir: string, env: Record<string, string> = {}): Config {
	const cfg = parseConfig({
		KANTERA_DATA_DIR: dir,
		KANTERA_LLM_PROVIDER: 'openai',
		KANTERA_LLM_MODEL: BENCH_MODEL,
		OPENAI_API_KEY: 'sk-bench-never-sent',
		// Hundreds of turns by one user in one day: the free-turn quota is not what is measured.
		KANTERA_FREE_TURNS_PER_DAY: '0',
		KANTERA_LOG_LEVEL: process.env.KANTERA_LOG_LEVEL ?? 'warn',
		...(process.env.KANTERA_LOG_FORMAT === undefined ? {} : { KANTERA_LOG_FORMAT: process.env.KANTERA_LOG_FORMAT }),
		...env
	});
	// As createApp does with it; bench:turn and bench:gallery build their parts without createApp.
	configureLog({ format: cfg.ops.logFormat, level: cfg.ops.logLevel });
	return cfg;
}

const WORLD_BEHAVIOUR = 'Keep the tone of a gaslit harbour mystery. Clues are fair; NPCs lie only with a reason.';

/** A world document of a dozen sections, so the context carries a realistic table of contents. */
const WORLD_DOCUMENT = [
	'# Saltmere',
	'A harbour city of canals, gaslight and fog, ruled by the Guild of Lanterns.',
	...[
		'The North Gate',
		'The Lantern Inn',
		'The salt market',
		'The old lighthouse',
		'The clock tower',
		'The flooded crypt',
		'The river docks',
		'The guild hall'
	].flatMap((place) => [
		`## ${place}`,
		`${place} is one of the places the party will know well. It has its regulars, its rumours and a door that should stay locked.`
	]),
	'## Factions',
	'### The Guild of Lanterns',
	'Keeps the lamps lit and the ledgers closed.',
	'### The Tide Brothers',
	'Smugglers who own the night on the docks.'
].join('\n\n');

export async function seedSession(s: SessionDb, language: Language = 'en'): Promise<string> {
	const mission = composeMission(language, WORLD_BEHAVIOUR);
	await s.write(async (tx) => {
		await ensureMission(tx, mission);
		await writeSettings(tx, { language });
		await documents.create(tx, { title: 'World: Saltmere', body: WORLD_DOCUMENT });
		await state.patch(tx, {
			location: 'the North Gate',
			time: 'Day 1, dusk',
			hp: 10,
			gold: 12,
			inventory: ['lantern', 'rope', 'a brass key']
		});
	});
	return mission;
}

export interface Player {
	sessionId: string;
	userId: string;
	/** Accepts `text` as a turn and waits until the runner has done everything it queued. */
	play(text: string): Promise<TurnRow>;
}

export function player(deps: AcceptDeps & { sessions: SessionDbPool; runner: TurnRunner }, sessionId = newId(), userId = newId()): Player {
	return {
		sessionId,
		userId,
		async play(text) {
			const accepted = await deps.sessions.use(sessionId, (s) => acceptTurn(deps, s, { userId, text, idempotencyKey: newId() }));
			deps.runner.kick(sessionId);
			await deps.runner.idle();
			const [row] = await deps.sessions.use(sessionId, (s) =>
				s.db.select().from(sessionSchema.turns).where(eq(sessionSchema.turns.id, accepted.turnId))
			);
			if (!row) throw new Error(`turn ${accepted.turnId} vanished`);
			if (row.status !== 'committed') throw new Error(`turn ${accepted.turnId} ended ${row.status}: ${row.error ?? ''}`);
			return row;
		}
	};
}
