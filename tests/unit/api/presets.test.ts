/**
 * The preset and gallery API, end to end through the route handlers with the mock LLM: authoring,
 * visibility (another user's private preset is a 404 everywhere), favourites, the gallery, imports,
 * and spoiler-free play — a marker in the author's world setting reaches no output the other
 * player can see (documents, backlog, messages, events, journal, state, cards), while the GM reads it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { apiHarness, waitForTurn, type ApiHarness, type Caller } from './client';
import { AcceptedTurn, bodyOf, ErrorBody, Session } from './shapes';
import { sseReader } from './sse-reader';
import { presetInput, SETTING_MARKER } from '../presets/factory';
import { base64Json, cardPng } from '../../helpers/card-png';
import { emptyForm } from '../../../src/lib/presets/form';

let h: ApiHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

const Created = v.object({ id: v.string(), version: v.nullable(v.number()), visibility: v.string() });
const Card = v.object({
	id: v.string(),
	title: v.string(),
	visibility: v.string(),
	documents: v.array(v.string()),
	npcs: v.array(v.strictObject({ name: v.string(), role: v.string(), appearance: v.string() })),
	plays: v.number(),
	favorites: v.number(),
	favorited: v.boolean()
});
const Gallery = v.object({
	items: v.array(
		v.strictObject({
			id: v.string(),
			title: v.string(),
			tagline: v.string(),
			language: v.nullable(v.string()),
			author: v.nullable(v.string()),
			plays: v.number(),
			favorites: v.number(),
			official: v.boolean(),
			recentPlayers: v.number(),
			coverUrl: v.nullable(v.string()),
			tags: v.array(v.string()),
			rating: v.picklist(['general', 'mature'])
		})
	),
	nextCursor: v.nullable(v.string())
});
const Docs = v.object({ documents: v.array(v.object({ id: v.number(), title: v.string(), sealed: v.optional(v.literal(true)) })) });
const ErrorWithIssues = v.object({ ...ErrorBody.entries, issues: v.array(v.object({ path: v.string(), code: v.string() })) });

async function publishedPreset(api: Caller, visibility: 'unlisted' | 'public' = 'unlisted'): Promise<string> {
	const { id } = await bodyOf(await api.post('/api/v1/presets', presetInput()), Created);
	expect((await api.patch(`/api/v1/presets/${id}`, { visibility })).status).toBe(200);
	return id;
}

describe('presets API', () => {
	it('creates a private preset, lists every problem of an invalid one, versions on PUT, deletes', async () => {
		h = await apiHarness({ llm: false });
		const api = h.as(h.alice);
		const created = await bodyOf(await api.post('/api/v1/presets', presetInput()), Created);
		expect(created).toMatchObject({ version: 1, visibility: 'private' });

		const bad = await api.post('/api/v1/presets', { ...presetInput(), title: '', tagline: 'two\nlines' });
		expect(bad.status).toBe(400);
		const problems = await bodyOf(bad, ErrorWithIssues);
		expect(problems.code).toBe('INVALID_PRESET');
		expect(problems.issues.map((i) => `${i.path}:${i.code}`)).toEqual(expect.arrayContaining(['title:empty', 'tagline:singleLine']));
		expect((await api.post('/api/v1/presets', { ...presetInput(), id: 'mine' })).status).toBe(400);
		expect((await api.post('/api/v1/presets', '[1]')).status).toBe(400);

		const put = await bodyOf(await api.put(`/api/v1/presets/${created.id}`, presetInput({ title: 'Second edition' })), Created);
		expect(put.version).toBe(2);
		const mine = v.parse(
			v.object({ presets: v.array(v.object({ id: v.string(), title: v.string() })) }),
			await (await api.get('/api/v1/presets')).json()
		);
		expect(mine.presets.map((p) => p.title)).toEqual(['Second edition']);
		expect((await api.delete(`/api/v1/presets/${created.id}`)).status).toBe(204);
		expect((await api.get(`/api/v1/presets/${created.id}`)).status).toBe(404);
		expect((await api.put('/api/v1/presets/sword-and-sorcery', presetInput())).status).toBe(403);
	});

	it('another user’s private preset is a 404 everywhere', async () => {
		h = await apiHarness({ llm: false });
		const { id } = await bodyOf(await h.as(h.alice).post('/api/v1/presets', presetInput()), Created);
		const bob = h.as(h.bob);
		const statuses = [
			(await bob.get(`/api/v1/presets/${id}`)).status,
			(await bob.put(`/api/v1/presets/${id}`, presetInput())).status,
			(await bob.patch(`/api/v1/presets/${id}`, { visibility: 'public' })).status,
			(await bob.delete(`/api/v1/presets/${id}`)).status,
			(await bob.put(`/api/v1/presets/${id}/favorite`)).status,
			(await bob.delete(`/api/v1/presets/${id}/favorite`)).status,
			(await bob.put(`/api/v1/presets/${id}/draft`, emptyForm('en'))).status,
			(await bob.post(`/api/v1/presets/${id}/report`, { reason: 'spam' })).status,
			(await bob.post('/api/v1/sessions', { preset: id })).status
		];
		expect(statuses).toEqual(Array(statuses.length).fill(404));
		const unknown = await bob.get('/api/v1/presets/nosuchpresetatall');
		expect(await unknown.json()).toEqual(await (await bob.get(`/api/v1/presets/${id}`)).json());
		expect((await h.as(null).get(`/api/v1/presets/${id}`)).status).toBe(401);
	});

	it('others get the public card only: no document bodies, NPC personalities, GM behaviour or secrets', async () => {
		h = await apiHarness({ llm: false });
		const id = await publishedPreset(h.as(h.alice));
		const input = presetInput();
		const res = await h.as(h.bob).get(`/api/v1/presets/${id}`);
		const text = await res.clone().text();
		const card = await bodyOf(res, Card);
		expect(card.documents).toEqual(['Premise', 'World Setting', 'PC Sheet']);
		expect(card.npcs.map((n) => n.name)).toEqual(input.npcs.map((n) => n.name));
		expect(text).not.toContain('"content"');
		expect(text).not.toContain(SETTING_MARKER);
		for (const hidden of [
			input.gmBehaviour,
			input.plot.body,
			input.opening.situation,
			...input.npcs.map((n) => n.personality),
			...input.secrets.flatMap((s) => [s.body, ...s.markers])
		]) {
			expect(text).not.toContain(hidden.slice(0, 60));
		}
		const own = v.parse(
			v.object({ content: v.object({ documents: v.object({ setting: v.object({ body: v.string() }) }) }) }),
			await (await h.as(h.alice).get(`/api/v1/presets/${id}`)).json()
		);
		expect(own.content.documents.setting.body).toContain(SETTING_MARKER);
	});

	it('favourites, visibility and the gallery', async () => {
		h = await apiHarness({ llm: false });
		const alice = h.as(h.alice);
		const bob = h.as(h.bob);
		const id = await publishedPreset(alice);
		expect(await (await bob.put(`/api/v1/presets/${id}/favorite`)).json()).toEqual({ id, favorited: true, favorites: 1 });
		expect(await (await bob.put(`/api/v1/presets/${id}/favorite`)).json()).toEqual({ id, favorited: true, favorites: 1 });
		const unlistedNew = await bodyOf(await bob.get('/api/v1/gallery?shelf=new'), Gallery);
		expect(unlistedNew.items.map((i) => i.id)).toEqual(['sword-and-sorcery', 'iron-walkers']);
		const favs = await bodyOf(await bob.get('/api/v1/gallery?shelf=favorites'), Gallery);
		expect(favs.items.map((i) => i.id)).toEqual([id]);

		expect((await bob.patch(`/api/v1/presets/${id}`, { visibility: 'public' })).status).toBe(403);
		expect((await alice.patch(`/api/v1/presets/${id}`, { visibility: 'everyone' })).status).toBe(400);
		expect((await alice.patch(`/api/v1/presets/${id}`, { visibility: 'public' })).status).toBe(200);
		const listed = await bodyOf(await bob.get('/api/v1/gallery?shelf=new&language=en&q=fan%20edition'), Gallery);
		expect(listed.items).toEqual([expect.objectContaining({ id, author: 'alice', favorites: 1, official: false, language: 'en' })]);
		expect((await bob.get('/api/v1/gallery?shelf=best')).status).toBe(400);
		expect((await bob.get('/api/v1/gallery?cursor=garbage')).status).toBe(400);
		expect((await bob.get('/api/v1/gallery?limit=1000')).status).toBe(400);
		expect((await bob.get('/api/v1/gallery?q=fan%00edition')).status).toBe(400);

		expect(await (await bob.delete(`/api/v1/presets/${id}/favorite`)).json()).toEqual({ id, favorited: false, favorites: 0 });
		expect((await bob.post(`/api/v1/presets/${id}/report`, { reason: '' })).status).toBe(400);
		const nul = await bob.post(`/api/v1/presets/${id}/report`, { reason: 'Copied\u0000 from a novel.' });
		expect(nul.status).toBe(400);
		expect((await bodyOf(nul, ErrorBody)).message).toMatch(/control character/);
		expect((await bob.post(`/api/v1/presets/${id}/report`, { reason: 'Copied from a novel.' })).status).toBe(201);
		expect((await alice.post(`/api/v1/presets/${id}/report`, { reason: 'me' })).status).toBe(403);
	});

	it('imports a card as multipart or as the raw body; a malformed file is refused and creates nothing', async () => {
		h = await apiHarness({ llm: false });
		const api = h.as(h.alice);
		const card = {
			spec: 'chara_card_v2',
			spec_version: '2.0',
			data: { name: 'Mira', description: 'A keeper in an oilskin coat.', scenario: 'A storm.' }
		};
		const form = new FormData();
		form.set('file', new File([cardPng({ chara: base64Json(card) })], 'mira.png', { type: 'image/png' }));
		const multipart = v.parse(
			v.object({ id: v.string(), draft: v.literal(true), title: v.string() }),
			await (await api.post('/api/v1/presets/import', form)).json()
		);
		expect(multipart.title).toBe('Mira');
		const raw = await api.request('POST', '/api/v1/presets/import', {
			body: new TextEncoder().encode(JSON.stringify(card)),
			headers: { 'content-type': 'application/json' }
		});
		expect(raw.status).toBe(201);
		const draft = v.parse(
			v.object({ version: v.null(), draft: v.object({ form: v.object({ npcs: v.array(v.object({ name: v.string() })) }) }) }),
			await (await api.get(`/api/v1/presets/${multipart.id}`)).json()
		);
		expect(draft.draft.form.npcs[0]?.name).toBe('Mira');
		expect((await api.patch(`/api/v1/presets/${multipart.id}`, { visibility: 'public' })).status).toBe(409);

		const count = async () =>
			v.parse(v.object({ presets: v.array(v.unknown()) }), await (await api.get('/api/v1/presets')).json()).presets.length;
		const before = await count();
		const bad = new FormData();
		bad.set('file', new File([cardPng({ chara: '%%% not base64 %%%' })], 'bad.png', { type: 'image/png' }));
		const refused = await api.post('/api/v1/presets/import', bad);
		expect(refused.status).toBe(400);
		expect(await bodyOf(refused, ErrorBody)).toMatchObject({ code: 'BAD_IMPORT', message: expect.stringMatching(/not valid base64/) });
		const wrongSpec = await api.request('POST', '/api/v1/presets/import', {
			body: new TextEncoder().encode('{"spec":"nope","data":{"name":"x"}}'),
			headers: { 'content-type': 'application/json' }
		});
		expect(wrongSpec.status).toBe(400);
		const nul = await api.request('POST', '/api/v1/presets/import', {
			body: new TextEncoder().encode(JSON.stringify({ ...card, data: { ...card.data, name: 'Mira\u0000 the keeper' } })),
			headers: { 'content-type': 'application/json' }
		});
		expect(nul.status).toBe(400);
		expect(await bodyOf(nul, ErrorBody)).toMatchObject({
			code: 'BAD_IMPORT',
			message: expect.stringMatching(/data.name: .*control character/)
		});
		const empty = new FormData();
		expect((await api.post('/api/v1/presets/import', empty)).status).toBe(400);
		expect((await api.request('POST', '/api/v1/presets/import', { body: 'x', headers: { 'content-type': 'text/csv' } })).status).toBe(415);
		expect(await count()).toBe(before);
	});

	it('a preset nesting its opening state 5,000 deep is a 400 naming the field on create, update and import; nothing changes', async () => {
		h = await apiHarness({ llm: false });
		const api = h.as(h.alice);
		const { id } = await bodyOf(await api.post('/api/v1/presets', presetInput()), Created);
		const before = await (await api.get(`/api/v1/presets/${id}`)).text();
		// Written as text: JSON.stringify of it would overflow this test's stack too (about 25 KB).
		const deepState = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;
		const withDeepState = (value: unknown) => JSON.stringify(value).replace('"DEEP"', deepState);
		const input = presetInput();
		const body = withDeepState({ ...input, opening: { ...input.opening, state: 'DEEP' } });
		const json = { 'content-type': 'application/json' };
		for (const res of [
			await api.request('POST', '/api/v1/presets', { body, headers: json }),
			await api.request('PUT', `/api/v1/presets/${id}`, { body, headers: json })
		]) {
			expect(res.status).toBe(400);
			const problems = await bodyOf(res, ErrorWithIssues);
			expect(problems.code).toBe('INVALID_PRESET');
			expect(problems.issues.map((i) => `${i.path}:${i.code}`)).toEqual(['opening.state:tooDeep']);
		}
		// Deep, but not too deep to walk: refused on its field with every other problem.
		let state: Record<string, unknown> = { hp: 1 };
		for (let i = 0; i < 35; i++) state = { a: state };
		const fairlyDeep = await api.post('/api/v1/presets', { ...input, title: '', opening: { ...input.opening, state } });
		expect(fairlyDeep.status).toBe(400);
		expect((await bodyOf(fairlyDeep, ErrorWithIssues)).issues.map((i) => `${i.path}:${i.code}`).sort()).toEqual([
			'opening.state:tooDeep',
			'title:empty'
		]);
		const file = withDeepState({
			format: 'kantera.preset',
			formatVersion: 1,
			exportedAt: '2031-01-01T00:00:00.000Z',
			preset: { opening: { state: 'DEEP' } }
		});
		const imported = await api.request('POST', '/api/v1/presets/import', { body: new TextEncoder().encode(file), headers: json });
		expect(imported.status).toBe(400);
		expect(await bodyOf(imported, ErrorBody)).toMatchObject({
			code: 'BAD_IMPORT',
			message: expect.stringMatching(/more than 40 levels deep/)
		});
		const presets = v.parse(v.object({ presets: v.array(v.object({ id: v.string() })) }), await (await api.get('/api/v1/presets')).json());
		expect(presets.presets.map((p) => p.id)).toEqual([id]);
		expect(await (await api.get(`/api/v1/presets/${id}`)).text()).toBe(before);
	});

	it('limits publishing per user: 429 with when to try again', async () => {
		h = await apiHarness({ llm: false, env: { KANTERA_PUBLISH_PER_DAY: '1' } });
		const api = h.as(h.alice);
		await publishedPreset(api, 'public');
		const { id } = await bodyOf(await api.post('/api/v1/presets', presetInput({ title: 'Second' })), Created);
		const res = await api.patch(`/api/v1/presets/${id}`, { visibility: 'public' });
		expect(res.status).toBe(429);
		expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
		expect(await bodyOf(res, ErrorBody)).toMatchObject({ code: 'PUBLISH_RATE_LIMITED', resetsAt: expect.any(String) });
		expect((await api.patch(`/api/v1/presets/${id}`, { visibility: 'unlisted' })).status).toBe(200);
	});
});

describe('spoiler-free play of another author’s world', () => {
	it('the marker in the author’s setting reaches no page the other player sees; the GM reads it in full', async () => {
		h = await apiHarness();
		const { mock } = h;
		if (!mock) throw new Error('the harness has a mock LLM');
		const alice = h.as(h.alice);
		const bob = h.as(h.bob);
		const id = await publishedPreset(alice);
		const bobSees: string[] = [];
		const seen = async (res: Response): Promise<Response> => {
			bobSees.push(await res.clone().text());
			return res;
		};

		const session = await bodyOf(await seen(await bob.post('/api/v1/sessions', { preset: id })), Session);
		const docs = await bodyOf(await seen(await bob.get(`/api/v1/sessions/${session.id}/documents`)), Docs);
		expect(docs.documents.map((d) => [d.title, d.sealed])).toEqual([
			['Premise', true],
			['World Setting', true],
			['PC Sheet', true]
		]);
		for (const d of docs.documents) {
			expect((await seen(await bob.get(`/api/v1/sessions/${session.id}/documents/${d.id}`))).status).toBe(404);
			expect((await seen(await bob.put(`/api/v1/sessions/${session.id}/documents/${d.id}`, { body: 'mine now' }))).status).toBe(404);
		}

		// The GM looks the vault up: by recall, then by reading the whole setting; then narrates without quoting.
		mock.script([
			{ toolCalls: [{ name: 'recall', arguments: { query: 'vault under the salt office' } }] },
			{ toolCalls: [{ name: 'read_document', arguments: { title: 'World Setting' } }] },
			{ text: 'The salt office is quiet tonight. Somewhere below, a door you cannot see is locked.' }
		]);
		const events = sseReader(await bob.get(`/api/v1/sessions/${session.id}/events`));
		const turn = await bodyOf(
			await bob.post(`/api/v1/sessions/${session.id}/turns`, { text: 'I ask about the vault.', idempotencyKey: 'spoiler-1' }),
			AcceptedTurn
		);
		await waitForTurn(bob, session.id, turn.turnId);
		const frames = await events.until((f) => f.event === 'turn.committed');
		await events.close();
		bobSees.push(frames.map((f) => f.data ?? '').join('\n'));

		const gmRequests = JSON.stringify(mock.requests.map((r) => r.body));
		expect(gmRequests).toContain(SETTING_MARKER);
		expect(gmRequests).toContain('The Vault Below');

		for (const path of ['', '/documents', '/backlog', '/messages', '/journal', '/journal/recent', '/state', `/turns/${turn.turnId}`]) {
			await seen(await bob.get(`/api/v1/sessions/${session.id}${path}`));
		}
		await seen(await bob.get(`/api/v1/presets/${id}`));
		await seen(await bob.get('/api/v1/gallery?shelf=favorites'));
		expect(bobSees.length).toBeGreaterThan(10);
		for (const body of bobSees) {
			expect(body).not.toContain(SETTING_MARKER);
			expect(body).not.toContain('The Vault Below');
		}
		expect(bobSees.join('\n')).toContain('The salt office is quiet tonight.');

		// The author playing their own world reads everything.
		const own = await bodyOf(await alice.post('/api/v1/sessions', { preset: id }), Session);
		const ownDocs = await bodyOf(await alice.get(`/api/v1/sessions/${own.id}/documents`), Docs);
		expect(ownDocs.documents.every((d) => d.sealed === undefined)).toBe(true);
		const setting = ownDocs.documents.find((d) => d.title === 'World Setting');
		expect(await (await alice.get(`/api/v1/sessions/${own.id}/documents/${setting?.id ?? 0}`)).text()).toContain(SETTING_MARKER);
	});

	it('official worlds keep working through `world` and `preset`, and their documents stay readable', async () => {
		h = await apiHarness();
		const bob = h.as(h.bob);
		const byPreset = await bodyOf(await bob.post('/api/v1/sessions', { preset: 'iron-walkers', language: 'ja' }), Session);
		expect(byPreset.language).toBe('ja');
		const docs = await bodyOf(await bob.get(`/api/v1/sessions/${byPreset.id}/documents`), Docs);
		expect(docs.documents.some((d) => d.sealed)).toBe(false);
		expect((await bob.post('/api/v1/sessions', { world: 'iron-walkers', preset: 'iron-walkers' })).status).toBe(400);
		expect((await bob.post('/api/v1/sessions', { preset: 'Not An Id' })).status).toBe(400);
	});
});
