/** Preset covers: the opening scene drawn as a durable job, retried, given up visibly, redrawn only when the scene changes. */
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../src/lib/server/app';
import { parseConfig } from '../../../src/lib/server/config';
import { createUser, type AuthUser } from '../../../src/lib/server/auth';
import { createFromInput, updateFromInput } from '../../../src/lib/server/presets';
import { tempDir } from '../../helpers/env';
import { ScriptedProvider } from '../images/helpers';
import type { GeneratedImage, ImageRequest } from '../../../src/lib/server/images';
import { makePng, readPng } from '../../image-generators';
import { presetInput } from './factory';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
	await cleanup?.();
	cleanup = undefined;
});

async function appWith(provider: ScriptedProvider, env: Record<string, string> = {}): Promise<{ app: App; author: AuthUser }> {
	const { dir, remove } = tempDir();
	const app = await createApp(parseConfig({ KANTERA_DATA_DIR: dir, ...env }), {
		images: { provider },
		coverPolicy: { retryBaseMs: 5, maxAttempts: 3 }
	});
	cleanup = async () => {
		await app.close();
		remove();
	};
	const author = await createUser(app, { name: 'author', password: 'correct horse battery' }, { viaOperator: true });
	return { app, author };
}

/** The app with the official presets' covers drawn, and the provider's log cleared. */
async function appAfterStartUp(provider: ScriptedProvider, env: Record<string, string> = {}): Promise<{ app: App; author: AuthUser }> {
	const built = await appWith(provider, env);
	built.app.covers.resume();
	for (const id of ['sword-and-sorcery', 'iron-walkers']) await settled(built.app, id);
	provider.requests.length = 0;
	return built;
}

async function settled(app: App, presetId: string): Promise<string | undefined> {
	for (let i = 0; i < 200; i++) {
		await app.covers.idle();
		const job = await app.covers.get(presetId);
		if (job && (job.status === 'done' || job.status === 'failed')) return job.status;
		await new Promise((r) => setTimeout(r, 10));
	}
	return (await app.covers.get(presetId))?.status;
}

describe('preset covers', () => {
	it('draws the opening scene from its visual fields; the official presets’ are ordered at start-up and drawn once resumed', async () => {
		const provider = new ScriptedProvider();
		const { app, author } = await appWith(provider);
		expect((await app.covers.get('sword-and-sorcery'))?.status).toBe('pending');
		app.covers.resume();
		expect(await settled(app, 'sword-and-sorcery')).toBe('done');
		expect(await settled(app, 'iron-walkers')).toBe('done');
		provider.requests.length = 0;
		const row = await createFromInput(app, author, presetInput());
		expect(await settled(app, row.id)).toBe('done');
		const job = await app.covers.get(row.id);
		expect(provider.requests).toEqual([expect.objectContaining({ kind: 'background', subject: presetInput().opening.scene.name })]);
		expect(job?.image).toMatch(/\.svg$/);
		const stored = job?.image ? await app.images.store.get(job.slot, job.image) : undefined;
		expect(stored?.contentType).toBe('image/svg+xml');
		// Nothing GM-only goes into the prompt.
		for (const secret of presetInput().secrets) expect(provider.requests[0]?.prompt).not.toContain(secret.body.slice(0, 40));
	});

	it('retries a failing service with backoff, then gives up and keeps the placeholder', async () => {
		const provider = new ScriptedProvider();
		const { app, author } = await appAfterStartUp(provider);
		provider.script('retryable', 'ok');
		const row = await createFromInput(app, author, presetInput());
		expect(await settled(app, row.id)).toBe('done');
		expect((await app.covers.get(row.id))?.attempts).toBe(2);

		provider.script('retryable', 'retryable', 'retryable');
		const again = await updateFromInput(app, author, row.id, {
			...presetInput(),
			opening: { ...presetInput().opening, scene: { name: 'Harbour', description: 'Grey sea, black boats.' } }
		});
		expect(await settled(app, again.id)).toBe('failed');
		const failed = await app.covers.get(row.id);
		expect(failed).toMatchObject({ attempts: 3, status: 'failed', error: expect.stringContaining('503') });
		// The earlier cover is still there until a new one is drawn.
		expect(failed?.image).toMatch(/\.svg$/);
	});

	it('gives up at once on an error another try cannot fix, as stage images do', async () => {
		const provider = new ScriptedProvider();
		const { app, author } = await appAfterStartUp(provider);
		provider.script('fatal', 'ok');
		const row = await createFromInput(app, author, presetInput());
		expect(await settled(app, row.id)).toBe('failed');
		expect(await app.covers.get(row.id)).toMatchObject({ attempts: 1, status: 'failed', error: expect.stringContaining('400') });
		expect(provider.requests).toHaveLength(1);
	});

	it('stores what a generator drew cleaned like an upload: its metadata (the prompt it wrote into the PNG) is dropped', async () => {
		/** The official covers are placeholders as usual; then it draws what AUTOMATIC1111 would send. */
		class DrawingProvider extends ScriptedProvider {
			png: Uint8Array | undefined;
			override async generate(request: ImageRequest): Promise<GeneratedImage> {
				const placeholder = await super.generate(request);
				return this.png ? { bytes: this.png, contentType: 'image/png' } : placeholder;
			}
		}
		const provider = new DrawingProvider();
		const { app, author } = await appAfterStartUp(provider);
		provider.png = makePng({ width: 96, height: 64, text: { parameters: 'A gate at dusk, Steps: 25' } });
		const row = await createFromInput(app, author, presetInput());
		expect(await settled(app, row.id)).toBe('done');
		const stored = await app.covers.image(row.id);
		expect(stored && readPng(stored.bytes)).toMatchObject({ width: 96, height: 64, chunks: ['IHDR', 'IDAT', 'IEND'] });
	});

	it('redraws only when the opening scene changed', async () => {
		const provider = new ScriptedProvider();
		const { app, author } = await appAfterStartUp(provider);
		const row = await createFromInput(app, author, presetInput());
		await settled(app, row.id);
		await updateFromInput(app, author, row.id, presetInput({ tagline: 'Another line, same opening.' }));
		await settled(app, row.id);
		expect(provider.requests).toHaveLength(1);
	});

	it('is charged to the author, and refused with the reason kept once their day is over budget', async () => {
		const provider = new ScriptedProvider();
		const { app, author } = await appAfterStartUp(provider, { KANTERA_IMAGE_PRICE_USD: '0.5', KANTERA_BUDGET_USER_DAY_USD: '0.4' });
		const row = await createFromInput(app, author, presetInput());
		expect(await settled(app, row.id)).toBe('done');
		await updateFromInput(app, author, row.id, {
			...presetInput(),
			opening: { ...presetInput().opening, scene: { name: 'Harbour', description: 'Grey sea, black boats.' } }
		});
		expect(await settled(app, row.id)).toBe('failed');
		expect((await app.covers.get(row.id))?.error).toMatch(/^Not drawn:/);
		expect(provider.requests).toHaveLength(1);
	});
});
