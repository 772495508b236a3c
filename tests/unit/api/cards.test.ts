/**
 * Cards and lorebooks through the API: an import answers with its report, a World Info file merges
 * into an author's preset, and a preset exports as a card in each format (the author only).
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { apiHarness, type ApiHarness } from './client';
import { bodyOf, ErrorBody } from './shapes';
import { presetInput } from '../presets/factory';
import { ImportReportSchema } from '../../../src/lib/types/presets';

let h: ApiHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/cards/${name}`, import.meta.url));
const Imported = v.object({ id: v.string(), draft: v.literal(true), title: v.string(), report: ImportReportSchema });
const Merged = v.object({ id: v.string(), draft: v.literal(true), report: ImportReportSchema });
const Created = v.object({ id: v.string() });
const DraftSetting = v.object({
	draft: v.object({ form: v.object({ documents: v.object({ setting: v.object({ body: v.string() }) }) }) })
});
const json = { 'content-type': 'application/json' };

describe('cards API', () => {
	it('answers an import with where each field went and what was dropped, and merges a World Info file into a preset', async () => {
		h = await apiHarness({ llm: false });
		const api = h.as(h.alice);
		const res = await api.request('POST', '/api/v1/presets/import', { body: fixture('glade-warden.v2.json'), headers: json });
		expect(res.status).toBe(201);
		const imported = await bodyOf(res, Imported);
		expect(imported.report.mapped).toContainEqual({ from: 'data.first_mes', to: 'opening.narration' });
		expect(imported.report.mapped).toContainEqual({ from: 'data.creator_notes', to: 'notes' });
		expect(imported.report.dropped).toContainEqual(expect.objectContaining({ field: 'data.extensions.world', code: 'keptForExport' }));

		const { id } = await bodyOf(await api.post('/api/v1/presets', presetInput()), Created);
		const merged = await api.request('POST', `/api/v1/presets/${id}/lorebook`, {
			body: fixture('vale-of-lanterns.world-info.json'),
			headers: json
		});
		expect(merged.status).toBe(200);
		expect((await bodyOf(merged, Merged)).report.mapped).toContainEqual({
			from: 'entries.1',
			to: 'documents.setting.body › Lantern Wardens'
		});
		const draft = await bodyOf(await api.get(`/api/v1/presets/${id}`), DraftSetting);
		expect(draft.draft.form.documents.setting.body).toContain('## Lantern Wardens\nKeys: warden, wardens');
		expect(draft.draft.form.documents.setting.body).toContain(presetInput().documents.setting.body.split('\n')[0]);

		const notLore = await api.request('POST', `/api/v1/presets/${id}/lorebook`, { body: JSON.stringify({ hello: 1 }), headers: json });
		expect(notLore.status).toBe(400);
		expect(await bodyOf(notLore, ErrorBody)).toMatchObject({ code: 'BAD_IMPORT', message: expect.stringMatching(/not a lorebook/) });
	});

	it('exports the saved preset as a Kantera file, a CCv3 JSON, a card PNG and a CHARX, to its author only', async () => {
		h = await apiHarness({ llm: false });
		const api = h.as(h.alice);
		const { id } = await bodyOf(await api.post('/api/v1/presets', presetInput()), Created);
		const types = { kantera: 'application/json', ccv3: 'application/json', png: 'image/png', charx: 'application/zip' };
		for (const [format, type] of Object.entries(types)) {
			const res = await api.get(`/api/v1/presets/${id}/export?format=${format}`);
			expect({ format, status: res.status, type: res.headers.get('content-type') }).toEqual({
				format,
				status: 200,
				type: expect.stringContaining(type)
			});
			expect(res.headers.get('content-disposition')).toMatch(/^attachment; /);
			const again = await api.request('POST', '/api/v1/presets/import', {
				body: new Uint8Array(await res.arrayBuffer()),
				headers: { 'content-type': 'application/octet-stream' }
			});
			expect({ format, status: again.status }).toEqual({ format, status: 201 });
		}
		expect((await api.get(`/api/v1/presets/${id}/export?format=docx`)).status).toBe(400);
		expect((await h.as(h.bob).get(`/api/v1/presets/${id}/export?format=ccv3`)).status).toBe(404);
	});
});
