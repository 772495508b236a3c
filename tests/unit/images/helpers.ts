/** Test-data factories for the image tests: an app with an injected image provider and clock. */
import { parseConfig } from '../../../src/lib/server/config';
import { createApp, type App } from '../../../src/lib/server/app';
import { newId, sessionSchema, type SessionDb } from '../../../src/lib/server/db';
import * as stage from '../../../src/lib/server/stage';
import { readEventsAfter } from '../../../src/lib/server/events';
import {
	ImageProviderError,
	OfflineImageProvider,
	type GeneratedImage,
	type ImageJobPolicy,
	type ImageProvider,
	type ImageRequest
} from '../../../src/lib/server/images';
import type { SessionEvent } from '../../../src/lib/types/events';
import type { Scheduler } from '../../../src/lib/server/jobs';
import { tempDir } from '../../helpers/env';

/** `{ retryAfterMs }`: a 429 whose service asked for that long a pause. */
export type Step = 'ok' | 'retryable' | 'fatal' | { gate: Promise<void> } | { retryAfterMs: number };

/** Records every request; answers from a script of steps (then with the offline placeholder). */
export class ScriptedProvider implements ImageProvider {
	readonly id = 'scripted';
	readonly requests: Omit<ImageRequest, 'signal'>[] = [];
	private readonly offline = new OfflineImageProvider();

	constructor(private readonly steps: Step[] = []) {}

	script(...steps: Step[]): void {
		this.steps.push(...steps);
	}

	async generate(request: ImageRequest): Promise<GeneratedImage> {
		this.requests.push({ kind: request.kind, prompt: request.prompt, subject: request.subject });
		const step = this.steps.shift() ?? 'ok';
		if (step === 'retryable') throw new ImageProviderError('image service answered 503', true, 503);
		if (step === 'fatal') throw new ImageProviderError('image service answered 400: content policy', false, 400);
		if (typeof step === 'object' && 'retryAfterMs' in step)
			throw new ImageProviderError('image service answered 429: slow down', true, 429, step.retryAfterMs);
		if (step !== 'ok') {
			// Waits at the gate like a slow service, but, like a real one, gives up when the runner aborts.
			await Promise.race([
				step.gate,
				new Promise<never>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true }))
			]);
		}
		return this.offline.generate(request);
	}
}

/** Registers an NPC in the session and a committed order for its sprite (as a turn's commit would); returns the order id. */
export function orderSprite(app: App, sessionId: string, name: string, turnId = 'turn-1'): Promise<number> {
	return app.sessions.use(sessionId, (s) =>
		s.write(async (tx) => {
			const { npc } = await stage.npcs.register(tx, { name, appearance: 'tall, grey cloak' });
			const order = await stage.imageOrders.place(tx, { target: 'npc', targetName: name, prompt: stage.npcSpritePrompt(npc) });
			await stage.imageOrders.claimForTurn(tx, turnId);
			return order.id;
		})
	);
}

export interface ImagesHarness {
	app: App;
	provider: ScriptedProvider;
	sessionId: string;
	/** The fake clock the runner reads; advance it to pass a backoff. */
	clock: { now: number };
	use<T>(fn: (s: SessionDb) => Promise<T>): Promise<T>;
	/** Registers an NPC and a committed order for its sprite (as a turn's commit would). */
	orderSprite(name: string, turnId?: string | null): Promise<number>;
	orderBackground(name: string, turnId?: string | null): Promise<number>;
	order(id: number): Promise<typeof sessionSchema.imageOrders.$inferSelect>;
	/** Kicks the runner and waits until it has nothing left to do now. */
	run(): Promise<void>;
	events(): Promise<SessionEvent[]>;
	cleanup: () => Promise<void>;
}

export const TEST_POLICY: Partial<ImageJobPolicy> = {
	maxAttempts: 3,
	// Long in real time: the runner's wake-up timer never fires during a test; the tests step the fake clock.
	retryBaseMs: 60_000,
	retryMaxMs: 10_000_000
};

export async function imagesHarness(
	opts: {
		steps?: Step[];
		policy?: Partial<ImageJobPolicy>;
		env?: Record<string, string>;
		scheduler?: (clock: { now: number }) => Scheduler;
	} = {}
): Promise<ImagesHarness> {
	const { dir, remove } = tempDir();
	const config = parseConfig({ KANTERA_DATA_DIR: dir, ...opts.env });
	const provider = new ScriptedProvider(opts.steps);
	const clock = { now: Date.UTC(2030, 0, 1) };
	const app = await createApp(config, {
		images: { provider, policy: { ...TEST_POLICY, ...opts.policy }, now: () => clock.now },
		...(opts.scheduler ? { scheduler: opts.scheduler(clock) } : {})
	});
	const sessionId = newId();
	await app.sessions.create(sessionId);
	const use = <T>(fn: (s: SessionDb) => Promise<T>) => app.sessions.use(sessionId, fn);
	const place = async (target: 'npc' | 'scene', name: string, turnId: string | null) =>
		use((s) =>
			s.write(async (tx) => {
				const prompt =
					target === 'npc'
						? stage.npcSpritePrompt((await stage.npcs.register(tx, { name, appearance: 'tall, grey cloak' })).npc)
						: stage.sceneBackgroundPrompt((await stage.scenes.register(tx, { name, description: 'stone walls, torches' })).scene);
				const order = await stage.imageOrders.place(tx, { target, targetName: name, prompt });
				if (turnId !== null) await stage.imageOrders.claimForTurn(tx, turnId);
				return order.id;
			})
		);
	return {
		app,
		provider,
		sessionId,
		clock,
		use,
		orderSprite: (name, turnId = 'turn-1') => place('npc', name, turnId),
		orderBackground: (name, turnId = 'turn-1') => place('scene', name, turnId),
		async order(id) {
			const rows = await use((s) => s.db.select().from(sessionSchema.imageOrders));
			const row = rows.find((r) => r.id === id);
			if (!row) throw new Error(`no order ${id}`);
			return row;
		},
		async run() {
			app.images.kick(sessionId);
			await app.images.idle();
		},
		events: () => use(async (s) => (await readEventsAfter(s.db, 0)).map((e) => e.event)),
		async cleanup() {
			await app.close();
			remove();
		}
	};
}
