/**
 * An author's sound through the API: music, ambience loops and effects uploaded, listed, replaced and
 * removed by the author only, told from their bytes (a PNG sent as audio/ogg refused); another user's
 * private preset does not exist for them; the files go with the preset.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { apiHarness, type ApiHarness } from './client';
import { bodyOf, ErrorBody } from './shapes';
import { presetInput } from '../presets/factory';
import { PresetAudioSchema } from '../../../src/lib/types/presets';
import { controlSchema, meta } from '../../../src/lib/server/db';
import { loadPlayView } from '../../../src/lib/server/play';
import { m4aFile, mp3File, oggOpus, oggVorbis } from '../../helpers/audio';
import { pngImage } from '../../helpers/images';

let h: ApiHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

const Created = v.object({ id: v.string() });
const AudioList = v.object({ items: v.array(PresetAudioSchema) });
const ogg = { 'content-type': 'audio/ogg' };
const FileWithSounds = v.looseObject({ sounds: v.array(v.object({ kind: v.string(), name: v.string(), data: v.string() })) });

describe('preset audio API', () => {
	it('stores checked sound for the author only, lists it, replaces and removes it, and refuses what is not sound', async () => {
		h = await apiHarness({ llm: false });
		const api = h.as(h.alice);
		const { id } = await bodyOf(await api.post('/api/v1/presets', presetInput()), Created);
		const base = `/api/v1/presets/${id}/audio`;
		const put = (path: string, body: Uint8Array) => api.request('PUT', `${base}/${path}`, { body, headers: ogg });

		const storm = await put(`music/${encodeURIComponent('Storm at sea')}`, mp3File());
		expect(storm.status).toBe(200);
		const stored = await bodyOf(storm, PresetAudioSchema);
		expect(stored).toMatchObject({ kind: 'music', name: 'Storm at sea', contentType: 'audio/mpeg' });
		expect(stored.url).toMatch(new RegExp(`^/presets/${id}/audio/[a-z0-9]+/[0-9a-f]{32}\\.mp3$`));
		expect((await put('ambience/Harbour', oggVorbis())).status).toBe(200);
		expect((await put('effect/Bell', m4aFile())).status).toBe(200);
		const list = await bodyOf(await api.get(base), AudioList);
		expect(list.items.map((a) => [a.kind, a.name, a.contentType])).toEqual([
			['ambience', 'Harbour', 'audio/ogg'],
			['effect', 'Bell', 'audio/mp4'],
			['music', 'Storm at sea', 'audio/mpeg']
		]);

		// Replacing a sound removes the old file.
		const first = (await h.app.control.db.select().from(controlSchema.presetAudio)).find((r) => r.name === 'Storm at sea');
		expect((await h.app.images.store.get(first?.slot ?? '', first?.file ?? ''))?.contentType).toBe('audio/mpeg');
		const replaced = await bodyOf(await put(`music/${encodeURIComponent('Storm at sea')}`, oggVorbis()), PresetAudioSchema);
		expect(replaced.contentType).toBe('audio/ogg');
		expect(await h.app.images.store.get(first?.slot ?? '', first?.file ?? '')).toBeUndefined();

		const bad = async (path: string, body: Uint8Array, code: string, message: RegExp) => {
			const res = await put(path, body);
			expect({ path, status: res.status }).toEqual({ path, status: 400 });
			expect(await bodyOf(res, ErrorBody)).toMatchObject({ code, message: expect.stringMatching(message) });
		};
		// A PNG named and sent as OGG is still a PNG.
		await bad('music/Theme', pngImage(2, 2), 'BAD_AUDIO', /not an OGG, MP3 or M4A/);
		await bad('music/none', mp3File(), 'INVALID_PRESET', /"none" or "keep"/);
		await bad('voices/Theme', mp3File(), 'INVALID_PRESET', /kind is one of music, ambience, effect/);
		expect((await bodyOf(await api.get(base), AudioList)).items).toHaveLength(3);

		// Someone else's private preset does not exist for them.
		const bob = h.as(h.bob);
		expect((await bob.get(base)).status).toBe(404);
		expect((await bob.request('PUT', `${base}/music/Theme`, { body: mp3File(), headers: ogg })).status).toBe(404);
		expect((await bob.delete(`${base}/effect/Bell`)).status).toBe(404);

		expect((await api.delete(`${base}/effect/Bell`)).status).toBe(200);
		expect((await api.delete(`${base}/effect/Bell`)).status).toBe(404);
		expect((await bodyOf(await api.get(base), AudioList)).items.map((a) => a.name)).toEqual(['Harbour', 'Storm at sea']);

		// Deleting the preset deletes its sound files.
		const rows = await h.app.control.db.select().from(controlSchema.presetAudio);
		expect((await api.delete(`/api/v1/presets/${id}`)).status).toBe(204);
		for (const row of rows) expect(await h.app.images.store.get(row.slot, row.file)).toBeUndefined();
	});

	it('the Kantera preset file carries the sound out and back in; a file with a bad sound is refused and makes nothing', async () => {
		h = await apiHarness({ llm: false });
		const api = h.as(h.alice);
		const { id } = await bodyOf(await api.post('/api/v1/presets', presetInput()), Created);
		const base = `/api/v1/presets/${id}/audio`;
		const files = { 'music/Theme': mp3File(6), 'ambience/Harbour': oggOpus(), 'effect/Bell': m4aFile() };
		for (const [path, body] of Object.entries(files))
			expect((await api.request('PUT', `${base}/${path}`, { body, headers: ogg })).status).toBe(200);

		const exported = await api.get(`/api/v1/presets/${id}/export?format=kantera`);
		expect(exported.status).toBe(200);
		const file = v.parse(FileWithSounds, await exported.json());
		expect(file.sounds.map((s) => `${s.kind}/${s.name}`)).toEqual(['ambience/Harbour', 'effect/Bell', 'music/Theme']);

		const asJson = (body: unknown) => ({
			body: new TextEncoder().encode(JSON.stringify(body)),
			headers: { 'content-type': 'application/json' }
		});
		const imported = await api.request('POST', '/api/v1/presets/import', asJson(file));
		expect(imported.status).toBe(201);
		const { id: copy } = await bodyOf(imported, Created);
		const items = (await bodyOf(await api.get(`/api/v1/presets/${copy}/audio`), AudioList)).items;
		expect(items.map((a) => [a.kind, a.name, a.contentType])).toEqual([
			['ambience', 'Harbour', 'audio/ogg'],
			['effect', 'Bell', 'audio/mp4'],
			['music', 'Theme', 'audio/mpeg']
		]);
		// The bytes came through unchanged.
		const rows = await h.app.control.db.select().from(controlSchema.presetAudio);
		const theme = rows.find((r) => r.presetId === copy && r.name === 'Theme');
		expect(
			Buffer.from((await h.app.images.store.get(theme?.slot ?? '', theme?.file ?? ''))?.bytes ?? []).equals(files['music/Theme'])
		).toBe(true);

		// A picture passed off as a sound in the file refuses the import; no draft is left behind.
		const before = (await h.app.control.db.select().from(controlSchema.presets)).length;
		const forged = { ...file, sounds: [...file.sounds, { kind: 'music', name: 'Forged', data: pngImage(2, 2).toString('base64') }] };
		const refused = await api.request('POST', '/api/v1/presets/import', asJson(forged));
		expect(refused.status).toBe(400);
		expect(await bodyOf(refused, ErrorBody)).toMatchObject({
			code: 'BAD_IMPORT',
			message: expect.stringMatching(/"Forged".*not an OGG, MP3 or M4A/)
		});
		expect((await h.app.control.db.select().from(controlSchema.presets)).length).toBe(before);
	});

	it('a session started from the preset copies its sound, lists it for the screen and names the music in the GM mission', async () => {
		h = await apiHarness({ llm: false });
		const api = h.as(h.alice);
		const { id } = await bodyOf(await api.post('/api/v1/presets', presetInput()), Created);
		const base = `/api/v1/presets/${id}/audio`;
		const theme = mp3File(5);
		expect((await api.request('PUT', `${base}/music/${encodeURIComponent('Harbour theme')}`, { body: theme, headers: ogg })).status).toBe(
			200
		);
		expect((await api.request('PUT', `${base}/ambience/Gulls`, { body: oggOpus(), headers: ogg })).status).toBe(200);

		const started = await api.post('/api/v1/sessions', { preset: id, title: 'With sound' });
		expect(started.status).toBe(201);
		const { id: sessionId } = await bodyOf(started, Created);
		const { view, mission } = await h.app.sessions.use(sessionId, async (s) => ({
			view: await loadPlayView(s.db, sessionId, { id: h?.alice.id ?? '', language: 'en' }),
			mission: await meta.readText(s.db, 'mission')
		}));
		expect(view.sounds?.map((x) => [x.kind, x.name])).toEqual([
			['ambience', 'Gulls'],
			['music', 'Harbour theme']
		]);
		const track = view.sounds?.find((x) => x.name === 'Harbour theme');
		expect(track?.url).toMatch(new RegExp(`^/api/v1/sessions/${sessionId}/images/[0-9a-f]{32}\\.mp3$`));
		// The session's own copy: it plays even once the author removes the track from the preset.
		expect((await api.delete(`${base}/music/${encodeURIComponent('Harbour theme')}`)).status).toBe(200);
		const served = await api.get(track?.url ?? '');
		expect(served.status).toBe(200);
		expect(served.headers.get('content-type')).toBe('audio/mpeg');
		expect(Buffer.from(await served.arrayBuffer()).equals(theme)).toBe(true);
		expect((await h.as(h.bob).get(track?.url ?? '')).status).toBe(404);
		expect(mission).toContain('Music tracks (adv_stage "music" cue');
		expect(mission).toContain(': Harbour theme.');
	});
});
