/**
 * An author's art through the API: sprites per NPC and expression, place backgrounds and the cover
 * uploaded, listed, replaced and removed by the author only, cleaned on the way in; a session started
 * from the preset shows the art instead of drawing, keeps it over a regeneration and carries it into a
 * branch loaded from a save.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { apiHarness, type ApiHarness } from './client';
import { bodyOf, ErrorBody } from './shapes';
import { presetInput } from '../presets/factory';
import { PresetArtSchema } from '../../../src/lib/types/presets';
import { controlSchema, sessionSchema } from '../../../src/lib/server/db';
import * as stage from '../../../src/lib/server/stage';
import { jpegImage, pngImage, textChunk } from '../../helpers/images';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { formToInput } from '../../../src/lib/presets/form';
import { ImportReportSchema } from '../../../src/lib/types/presets';
import { PresetFormSchema } from '../../../src/lib/presets/form';

let h: ApiHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

const Created = v.object({ id: v.string() });
const ArtList = v.object({ items: v.array(PresetArtSchema) });
const Card = v.object({ coverUrl: v.nullable(v.string()) });
const StageImages = v.object({
	characters: v.array(v.object({ name: v.string(), expression: v.optional(v.string()), url: v.nullable(v.string()), status: v.string() })),
	scenes: v.array(v.object({ name: v.string(), url: v.nullable(v.string()), status: v.string() }))
});
const raw = { 'content-type': 'application/octet-stream' };
const keyOf = (url: string | null) => url?.slice(url.lastIndexOf('/') + 1);

describe('preset art API', () => {
	it('stores cleaned art for the author only, lists it, refuses bad images with a clear 400, and removes it', async () => {
		h = await apiHarness({ llm: false });
		const api = h.as(h.alice);
		const preset = presetInput();
		const npc = preset.npcs[0]?.name ?? '';
		const { id } = await bodyOf(await api.post('/api/v1/presets', preset), Created);
		const base = `/api/v1/presets/${id}/art`;
		const sprite = pngImage(4, 6, { before: [textChunk('Author', 'Alice Example')] });

		const put = await api.request('PUT', `${base}/npcs/${encodeURIComponent(npc)}/default`, {
			body: sprite,
			headers: { 'content-type': 'image/gif' }
		});
		expect(put.status).toBe(200);
		const stored = await bodyOf(put, PresetArtSchema);
		expect(stored).toMatchObject({ kind: 'npc', name: npc, expression: 'default', width: 4, height: 6 });
		expect(stored.url).toMatch(new RegExp(`^/presets/${id}/art/[a-z0-9]+/[0-9a-f]{32}\\.png$`));
		const [row] = await h.app.control.db.select().from(controlSchema.presetArt);
		const file = await h.app.images.store.get(row?.slot ?? '', row?.image ?? '');
		expect(file?.contentType).toBe('image/png');
		expect(Buffer.from(file?.bytes ?? []).includes('Alice Example')).toBe(false);

		expect(
			(await api.request('PUT', `${base}/npcs/${encodeURIComponent(npc)}/smile`, { body: jpegImage(64, 64), headers: raw })).status
		).toBe(200);
		expect(
			(await api.request('PUT', `${base}/places/${encodeURIComponent('The Salt Road')}`, { body: pngImage(8, 4), headers: raw })).status
		).toBe(200);
		expect((await api.request('PUT', `${base}/cover`, { body: pngImage(16, 9), headers: raw })).status).toBe(200);
		const list = await bodyOf(await api.get(base), ArtList);
		expect(list.items.map((a) => [a.kind, a.name, a.expression])).toEqual([
			['cover', undefined, undefined],
			['npc', npc, 'default'],
			['npc', npc, 'smile'],
			['place', 'The Salt Road', undefined]
		]);
		const cover = list.items[0]?.url ?? '';
		// The author's cover is the preset's cover.
		expect(keyOf((await bodyOf(await api.get(`/api/v1/presets/${id}`), Card)).coverUrl)).toBe(keyOf(cover));

		// Replacing an image removes the old file.
		const replaced = await bodyOf(
			await api.request('PUT', `${base}/npcs/${encodeURIComponent(npc)}/default`, { body: pngImage(5, 5), headers: raw }),
			PresetArtSchema
		);
		expect(replaced.width).toBe(5);
		expect(await h.app.images.store.get(row?.slot ?? '', row?.image ?? '')).toBeUndefined();

		const bad = async (path: string, body: Uint8Array, code: string, message: RegExp) => {
			const res = await api.request('PUT', `${base}/${path}`, { body, headers: { 'content-type': 'image/png' } });
			expect({ path, status: res.status }).toEqual({ path, status: 400 });
			expect(await bodyOf(res, ErrorBody)).toMatchObject({ code, message: expect.stringMatching(message) });
		};
		await bad('cover', Buffer.from('<svg><script>alert(1)</script></svg>'), 'BAD_IMAGE', /not a PNG, JPEG or WebP/);
		await bad('npcs/Nobody/default', pngImage(2, 2), 'INVALID_PRESET', /no NPC named "Nobody"/);
		await bad(`npcs/${encodeURIComponent(npc)}/${encodeURIComponent('grin(wide)')}`, pngImage(2, 2), 'INVALID_PRESET', /cannot hold/);
		expect((await bodyOf(await api.get(base), ArtList)).items).toHaveLength(4);

		// Someone else's private preset does not exist for them.
		const bob = h.as(h.bob);
		expect((await bob.get(base)).status).toBe(404);
		expect((await bob.request('PUT', `${base}/cover`, { body: pngImage(2, 2), headers: raw })).status).toBe(404);
		expect((await bob.delete(`${base}/cover`)).status).toBe(404);

		expect((await api.delete(`${base}/npcs/${encodeURIComponent(npc)}/smile`)).status).toBe(200);
		expect((await api.delete(`${base}/npcs/${encodeURIComponent(npc)}/smile`)).status).toBe(404);
		expect((await api.delete(`${base}/cover`)).status).toBe(200);
		// Without the author's cover a drawn one is ordered again.
		const [job] = await h.app.control.db.select().from(controlSchema.presetCovers);
		expect(job?.prompt).not.toBe('(author art)');
		expect((await bodyOf(await api.get(base), ArtList)).items.map((a) => a.kind)).toEqual(['npc', 'place']);
	});

	it('a session shows the author’s art instead of drawing, keeps it over a regeneration, and a branch from a save keeps it too', async () => {
		h = await apiHarness({ llm: false, tier: 'plus' });
		const api = h.as(h.alice);
		const preset = presetInput();
		const npc = preset.npcs[0]?.name ?? '';
		const scene = preset.opening.scene.name;
		const { id } = await bodyOf(await api.post('/api/v1/presets', preset), Created);
		const base = `/api/v1/presets/${id}/art`;
		const put = async (path: string, body: Uint8Array) =>
			keyOf((await bodyOf(await api.request('PUT', `${base}/${path}`, { body, headers: raw }), PresetArtSchema)).url);
		const sprite = await put(`npcs/${encodeURIComponent(npc)}/default`, pngImage(4, 6));
		const smile = await put(`npcs/${encodeURIComponent(npc)}/smile`, pngImage(4, 6, { rgba: [0, 200, 0, 255] }));
		const background = await put(`places/${encodeURIComponent(scene)}`, pngImage(16, 9));

		const started = await api.post('/api/v1/sessions', { preset: id, title: 'With art' });
		expect(started.status).toBe(201);
		const { id: sessionId } = await bodyOf(started, Created);
		const images = async (session: string) => bodyOf(await api.get(`/api/v1/sessions/${session}/images`), StageImages);
		const check = async (session: string) => {
			const seen = await images(session);
			const plain = seen.characters.find((c) => c.name === npc && c.expression === undefined);
			const smiling = seen.characters.find((c) => c.name === npc && c.expression === 'smile');
			const place = seen.scenes.find((s) => s.name === scene);
			expect({ plain: plain?.status, smile: smiling?.status, place: place?.status }).toEqual({
				plain: 'ready',
				smile: 'ready',
				place: 'ready'
			});
			expect([keyOf(plain?.url ?? null), keyOf(smiling?.url ?? null), keyOf(place?.url ?? null)]).toEqual([sprite, smile, background]);
			const file = await h?.app.images.store.get(session, sprite ?? '');
			expect(file?.contentType).toBe('image/png');
		};
		await check(sessionId);
		// The GM names a part of the place in its own case: the author's background, not a drawing.
		const part = `${scene.toUpperCase()} — back room`;
		await h.app.sessions.use(sessionId, (s) =>
			s.write(async (tx) => {
				await stage.scenes.register(tx, { name: part, description: 'A narrow room behind the bar.' });
				await stage.imageOrders.place(tx, { target: 'scene', targetName: part, prompt: 'a narrow room' });
			})
		);
		const backRoom = (await images(sessionId)).scenes.find((s) => s.name === part);
		expect([backRoom?.status, keyOf(backRoom?.url ?? null)]).toEqual(['ready', background]);
		// Nothing was ordered for what the art shows: only the other NPCs are drawn.
		const orders = await h.app.sessions.use(sessionId, (s) => s.db.select().from(sessionSchema.imageOrders));
		expect(orders.filter((o) => o.status !== 'done').map((o) => o.targetName)).not.toContain(npc);
		expect(orders.filter((o) => o.status !== 'done').map((o) => o.targetName)).not.toContain(scene);
		expect(orders.filter((o) => o.status !== 'done').map((o) => o.targetName)).not.toContain(part);

		// A regeneration by hand does not draw over the author's sprite.
		const again = await api.post(`/api/v1/sessions/${sessionId}/images/regenerate`, { target: 'npc', name: npc });
		expect(again.status).toBe(202);
		await h.app.images.idle();
		await check(sessionId);

		const save = await api.post(`/api/v1/sessions/${sessionId}/saves`, { name: 'Start' });
		expect(save.status).toBe(201);
		const { id: saveId } = await bodyOf(save, Created);
		const loaded = await api.post(`/api/v1/sessions/${sessionId}/saves/${saveId}/load`);
		expect(loaded.status).toBe(201);
		const { sessionId: branch } = await bodyOf(loaded, v.object({ sessionId: v.string() }));
		await check(branch);
	});

	it('a CHARX card’s assets become art, and the exports carry the art back out (CHARX files, data: URIs in JSON and PNG)', async () => {
		h = await apiHarness({ llm: false });
		const api = h.as(h.alice);
		// Written from the CCv3 spec: an icon, an emotion, the main background, a web address, an asset type Kantera has no use for.
		const portrait = pngImage(6, 8, { before: [textChunk('Software', 'PaintTool')] });
		const joy = pngImage(6, 8, { rgba: [250, 220, 0, 255] });
		const card = {
			spec: 'chara_card_v3',
			spec_version: '3.0',
			data: {
				name: 'Mirelle',
				description: 'A lighthouse keeper who counts ships.',
				personality: 'patient, dry',
				scenario: 'A storm strands you at the lighthouse.',
				first_mes: 'The lamp turns. "You are late," Mirelle says.',
				mes_example: '',
				creator_notes: '',
				system_prompt: '',
				post_history_instructions: '',
				alternate_greetings: [],
				tags: ['sea'],
				creator: 'spec test',
				character_version: '1',
				extensions: {},
				group_only_greetings: [],
				assets: [
					{ type: 'icon', uri: 'embeded://assets/icon/images/main.png', name: 'main', ext: 'png' },
					{ type: 'emotion', uri: 'embeded://assets/emotion/images/joy.png', name: 'joy', ext: 'png' },
					{ type: 'background', uri: 'embeded://assets/background/images/main.jpg', name: 'main', ext: 'jpg' },
					{ type: 'background', uri: 'https://example.com/harbour.png', name: 'harbour', ext: 'png' },
					{ type: 'user_icon', uri: 'embeded://assets/user_icon/images/me.png', name: 'me', ext: 'png' }
				]
			}
		};
		const charx = zipSync({
			'card.json': strToU8(JSON.stringify(card)),
			'assets/icon/images/main.png': portrait,
			'assets/emotion/images/joy.png': joy,
			'assets/background/images/main.jpg': jpegImage(32, 18),
			'assets/user_icon/images/me.png': pngImage(2, 2)
		});
		const res = await api.request('POST', '/api/v1/presets/import', { body: charx, headers: raw });
		expect(res.status).toBe(201);
		const imported = await bodyOf(res, v.object({ id: v.string(), report: ImportReportSchema }));
		const { id } = imported;
		expect(imported.report.mapped).toEqual(
			expect.arrayContaining([
				{ from: 'data.assets.0', to: 'art.npcs.Mirelle.default' },
				{ from: 'data.assets.1', to: 'art.npcs.Mirelle.joy' },
				{ from: 'data.assets.2', to: expect.stringMatching(/^art\.places\./) }
			])
		);
		expect(imported.report.dropped).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ field: 'data.assets.3', why: 'web addresses are not fetched' }),
				expect.objectContaining({ field: 'data.assets.4', why: expect.stringContaining('"user_icon"') }),
				expect.objectContaining({ field: 'assets/user_icon/images/me.png' })
			])
		);
		const art = async (preset: string) =>
			(await bodyOf(await api.get(`/api/v1/presets/${preset}/art`), ArtList)).items.map(
				(a) => `${a.kind}:${a.name ?? ''}:${a.expression ?? ''}`
			);
		const detail = await bodyOf(await api.get(`/api/v1/presets/${id}`), v.object({ draft: v.object({ form: PresetFormSchema }) }));
		const scene = detail.draft.form.opening.scene.name;
		expect(await art(id)).toEqual(['npc:Mirelle:default', 'npc:Mirelle:joy', `place:${scene}:`]);

		// Saved as a version, the preset goes out with its art in each card format and comes back with it.
		const put = await api.request('PUT', `/api/v1/presets/${id}`, { body: formToInput(detail.draft.form) });
		expect(put.status).toBe(200);
		const exported = async (format: string) =>
			new Uint8Array(await (await api.get(`/api/v1/presets/${id}/export?format=${format}`)).arrayBuffer());
		const zipped = unzipSync(await exported('charx'));
		const inside = JSON.parse(new TextDecoder().decode(zipped['card.json'])) as {
			data: { assets: { type: string; uri: string; name: string }[] };
		};
		expect(inside.data.assets.map((a) => [a.type, a.name])).toEqual([
			['icon', 'main'],
			['emotion', 'joy'],
			['background', 'main']
		]);
		for (const a of inside.data.assets) expect(zipped[a.uri.replace('embeded://', '')], a.uri).toBeDefined();
		for (const format of ['charx', 'ccv3', 'png']) {
			const again = await api.request('POST', '/api/v1/presets/import', { body: await exported(format), headers: raw });
			expect({ format, status: again.status }).toEqual({ format, status: 201 });
			const copy = await bodyOf(again, Created);
			expect({ format, art: await art(copy.id) }).toEqual({ format, art: ['npc:Mirelle:default', 'npc:Mirelle:joy', `place:${scene}:`] });
		}
	});
});
