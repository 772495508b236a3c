/**
 * A session's stage drawn by each local generator, configured as an operator would (environment and workflow files):
 * a real turn over the mock LLM registers a character and sets a scene, the image jobs ask the fake ComfyUI or
 * AUTOMATIC1111 over HTTP, and the sprite and the background land in the store at the configured sizes, sprites with
 * alpha, every generator's metadata (the prompt, the workflow, the generation parameters) stripped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { controlSchema } from '../../../src/lib/server/db';
import * as stage from '../../../src/lib/server/stage';
import { turnHarness, type TurnHarness } from '../../helpers/turns';
import { defaultWorkflow, readPng, spriteWorkflow, startFakeA1111, startFakeComfyUi } from '../../image-generators';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	while (cleanups.length > 0) await cleanups.pop()?.();
});

const SIZES = { KANTERA_IMAGES_SPRITE_SIZE: '64x96', KANTERA_IMAGES_BACKGROUND_SIZE: '96x64' };

/** Plays a turn whose GM registers Bram and sets the scene at the North Gate; returns what the stage shows. */
async function playTheGate(h: TurnHarness) {
	h.mock.script([
		{
			toolCalls: [
				{ name: 'register_npc', arguments: { name: 'Bram', appearance: 'tall man, grey beard, steel breastplate' } },
				{ name: 'set_scene', arguments: { name: 'North Gate', description: 'massive stone gate, torches, light snow, dusk' } }
			]
		},
		{ text: 'Bram steps out of the snow.' }
	]);
	expect((await h.play('who guards the gate?')).status).toBe('committed');
	const npc = await h.use((s) => stage.npcs.get(s.db, 'Bram'));
	const scene = await h.use((s) => stage.scenes.get(s.db, 'North Gate'));
	const stored = async (key: string | null | undefined) => {
		const image = key ? await h.app.images.store.get(h.sessionId, key) : undefined;
		if (!image) throw new Error(`no stored image for ${String(key)}`);
		return { ...readPng(image.bytes), contentType: image.contentType, text: Buffer.from(image.bytes).toString('latin1') };
	};
	const [usage] = await h.app.control.db
		.select()
		.from(controlSchema.usageSession)
		.where(eq(controlSchema.usageSession.sessionId, h.sessionId));
	return { sprite: await stored(npc?.spriteImage), background: await stored(scene?.backgroundImage), costMicros: usage?.costMicros ?? 0 };
}

describe("a session's stage through a local generator", () => {
	it('ComfyUI: the workflows run with the GM-given look, and the pictures land in the store, the sprite with alpha, free', async () => {
		const fake = await startFakeComfyUi({ pollsBeforeDone: 0 });
		cleanups.push(() => fake.close());
		const dir = mkdtempSync(path.join(tmpdir(), 'kantera-comfy-'));
		cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
		writeFileSync(path.join(dir, 'background.json'), JSON.stringify(defaultWorkflow()));
		writeFileSync(path.join(dir, 'sprite.json'), JSON.stringify(spriteWorkflow()));
		const h = await turnHarness('openai', {
			KANTERA_IMAGES: 'comfyui',
			KANTERA_COMFYUI_URL: fake.url,
			KANTERA_COMFYUI_WORKFLOW: path.join(dir, 'background.json'),
			KANTERA_COMFYUI_SPRITE_WORKFLOW: path.join(dir, 'sprite.json'),
			KANTERA_COMFYUI_PROMPT_NODE: '6',
			KANTERA_COMFYUI_NEGATIVE_NODE: '7',
			KANTERA_COMFYUI_SIZE_NODE: '5',
			KANTERA_COMFYUI_SEED_NODE: '3',
			KANTERA_IMAGES_NEGATIVE_PROMPT: 'text, watermark',
			...SIZES
		});
		cleanups.push(() => h.cleanup());
		const { sprite, background, costMicros } = await playTheGate(h);

		const texts = fake.prompts.map((p) => p.prompt['6']?.inputs['text']);
		expect(texts).toContainEqual(expect.stringContaining('Appearance: tall man, grey beard, steel breastplate'));
		expect(texts).toContainEqual(expect.stringContaining('Place: North Gate.'));
		expect(sprite).toMatchObject({ contentType: 'image/png', width: 64, height: 96, colourType: 6 });
		expect(background).toMatchObject({ contentType: 'image/png', width: 96, height: 64, colourType: 2 });
		// ComfyUI wrote the whole prompt and workflow into the files; none of it is kept.
		for (const image of [sprite, background]) {
			expect(image.chunks).toEqual(['IHDR', 'IDAT', 'IEND']);
			expect(image.text).not.toContain('North Gate');
			expect(image.text).not.toContain('CLIPTextEncode');
		}
		expect(costMicros).toBe(0);
	});

	it('AUTOMATIC1111: txt2img draws both, the sprite scripts make the sprite transparent, the parameters chunk is stripped', async () => {
		const fake = await startFakeA1111({ auth: 'kantera:secret' });
		cleanups.push(() => fake.close());
		const h = await turnHarness('openai', {
			KANTERA_IMAGES: 'a1111',
			KANTERA_A1111_URL: fake.url,
			KANTERA_A1111_AUTH: 'kantera:secret',
			KANTERA_A1111_SPRITE_SCRIPTS: '{"ABG Remover": {"args": [true]}}',
			...SIZES
		});
		cleanups.push(() => h.cleanup());
		const { sprite, background, costMicros } = await playTheGate(h);

		expect(fake.requests.map((r) => r.body['prompt'])).toEqual(
			expect.arrayContaining([expect.stringContaining('Appearance: tall man'), expect.stringContaining('Place: North Gate.')])
		);
		expect(sprite).toMatchObject({ contentType: 'image/png', width: 64, height: 96, colourType: 6 });
		expect(background).toMatchObject({ contentType: 'image/png', width: 96, height: 64, colourType: 2 });
		for (const image of [sprite, background]) {
			expect(image.chunks).toEqual(['IHDR', 'IDAT', 'IEND']);
			expect(image.text).not.toContain('Negative prompt');
		}
		expect(costMicros).toBe(0);
	});
});
