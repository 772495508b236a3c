/** Test-data factories for the image tests: an app with an injected image provider and clock, a local images server. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { parseConfig } from '../../../src/lib/server/config';
import { createApp, type App } from '../../../src/lib/server/app';
import { newId, sessionSchema, type SessionDb } from '../../../src/lib/server/db';
import * as stage from '../../../src/lib/server/stage';
import { readEventsAfter } from '../../../src/lib/server/turn';
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

/** A valid 1×1 transparent PNG. */
export const TINY_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export type Step = 'ok' | 'retryable' | 'fatal' | { gate: Promise<void> };

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

export interface ImagesServerRequest {
	method: string;
	path: string;
	authorization: string | undefined;
	body: Record<string, unknown>;
}

export type ServerStep = 'png' | 'url-only' | 'not-an-image' | 'hang' | { status: number };

/** A local server speaking the OpenAI images wire format; records requests, answers from a script (then a PNG). */
export async function startImagesServer(
	steps: ServerStep[] = []
): Promise<{ baseUrl: string; requests: ImagesServerRequest[]; script(...s: ServerStep[]): void; close(): Promise<void> }> {
	const requests: ImagesServerRequest[] = [];
	const server: Server = createServer((req, res) => {
		void readBody(req).then((raw) => {
			const parsed: unknown = raw ? JSON.parse(raw) : {};
			const body = typeof parsed === 'object' && parsed !== null ? Object.fromEntries(Object.entries(parsed)) : {};
			requests.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, body });
			const step = steps.shift() ?? 'png';
			if (step === 'hang') return;
			res.setHeader('content-type', 'application/json');
			if (typeof step === 'object') {
				res.statusCode = step.status;
				res.end(JSON.stringify({ error: { message: `scripted ${step.status}` } }));
			} else if (step === 'url-only') res.end(JSON.stringify({ created: 1, data: [{ url: 'http://example.invalid/x.png' }] }));
			else if (step === 'not-an-image')
				res.end(JSON.stringify({ created: 1, data: [{ b64_json: Buffer.from('<html>nope</html>').toString('base64') }] }));
			else res.end(JSON.stringify({ created: 1, data: [{ b64_json: TINY_PNG_BASE64 }], usage: { total_tokens: 10 } }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	if (address === null || typeof address === 'string') throw new Error('images server has no port');
	return {
		baseUrl: `http://127.0.0.1:${address.port}/v1`,
		requests,
		script: (...s) => steps.push(...s),
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		let data = '';
		req.setEncoding('utf8');
		req.on('data', (chunk: string) => (data += chunk));
		req.on('end', () => resolve(data));
		req.on('error', reject);
	});
}
