/** The play screen's backlog and side-panel endpoints: backlog pages with stage replay, journal paging, document edits. */
import { afterEach, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { apiHarness, waitForTurn, type ApiHarness, type Caller } from './client';
import type { LogPageDto } from '../../../src/lib/types/log';
import { AcceptedTurn, bodyOf, Document, ErrorBody, Session } from './shapes';
import { documents, journal, log } from '../../../src/lib/server/records';
import { cues as stageCues, imageOrders, npcs, scenes } from '../../../src/lib/server/stage';
import { loadPlayView } from '../../../src/lib/server/play';
import { fetchLogPage } from '../../../src/lib/play/log';
import { Story } from '../../../src/lib/play/story.svelte';
import { BacklogModel } from '../../../src/lib/components/backlog/model';
import { embedPending, recall, VECTOR_TABLE } from '../../../src/lib/server/search';
import { vectorSearch } from '../../../src/lib/server/search/vector-search';
import { sessionSchema, type SessionDb } from '../../../src/lib/server/db';
import { EMPTY_STAGE, StageTimeline, type StageCue, type StageState } from '../../../src/lib/adv';
import { lastTurn } from '../../mock-llm';

let h: ApiHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

async function harness(): Promise<ApiHarness> {
	h = await apiHarness();
	return h;
}

async function newSession(api: Caller): Promise<string> {
	const res = await api.post('/api/v1/sessions', { title: 'The harbour' });
	expect(res.status).toBe(201);
	return (await bodyOf(res, Session)).id;
}

const Figure = v.nullable(v.object({ character: v.string(), expression: v.optional(v.string()) }));
const Stage = v.object({
	background: v.nullable(v.object({ scene: v.string() })),
	slots: v.object({ left: Figure, center: Figure, right: Figure }),
	speaker: v.nullable(v.string())
});
const Cue = v.object({
	paragraph: v.number(),
	action: v.picklist(['enter', 'exit', 'move', 'expression', 'background']),
	character: v.optional(v.string()),
	slot: v.optional(v.picklist(['left', 'center', 'right'])),
	expression: v.optional(v.string()),
	scene: v.optional(v.string())
});
const Image = v.strictObject({
	name: v.string(),
	url: v.nullable(v.string()),
	status: v.picklist(['pending', 'ready', 'failed']),
	expression: v.optional(v.string()),
	kind: v.optional(v.picklist(['interior', 'street', 'field', 'night']))
});
const BacklogPage = v.strictObject({
	messages: v.array(
		v.object({
			id: v.number(),
			role: v.picklist(['player', 'gm', 'operator', 'system']),
			body: v.string(),
			speaker: v.nullable(v.string()),
			turnId: v.nullable(v.string()),
			createdAt: v.string()
		})
	),
	cues: v.array(v.strictObject({ messageId: v.number(), paragraph: v.number(), ord: v.number(), cue: Cue })),
	stageBefore: Stage,
	nextBefore: v.optional(v.number()),
	images: v.strictObject({ characters: v.array(Image), scenes: v.array(Image) })
});
type BacklogPage = v.InferOutput<typeof BacklogPage>;
const JournalPage = v.strictObject({
	entries: v.array(v.object({ id: v.number(), body: v.string(), createdAt: v.string() })),
	nextBefore: v.optional(v.number())
});

/** A play log of `turns` exchanges whose GM replies move people and places about, with the cues stored as a commit would. */
async function seedLog(s: SessionDb, turns: number): Promise<{ ids: number[]; cues: Map<number, StageCue[]> }> {
	const people = ['Bram', 'Ana', 'Kit', 'Old Sal'];
	const places = ['Harbour', 'Lighthouse', 'Tavern'];
	const ids: number[] = [];
	const cues = new Map<number, StageCue[]>();
	await s.write(async (tx) => {
		for (const name of people) await npcs.register(tx, { name, appearance: `${name}, in a wet coat` });
		for (const name of places) await scenes.register(tx, { name, description: `The ${name}, foggy` });
		for (let t = 0; t < turns; t++) {
			const turnId = `turn-${t}`;
			const player = await log.append(tx, { role: 'player', body: `I look around (${t}).`, turnId });
			const who = people[t % people.length] ?? 'Bram';
			const gm = await log.append(tx, {
				role: 'gm',
				body: `The fog thickens.\n\n@${who}(wary): Who goes there, ${t}?\n\nA gull cries.`,
				turnId
			});
			const list: StageCue[] =
				t % 3 === 0
					? [
							{ paragraph: 0, action: 'background', scene: places[t % places.length] ?? 'Harbour' },
							{ paragraph: 1, action: 'enter', character: who, slot: (['left', 'center', 'right'] as const)[t % 3] ?? 'left' }
						]
					: t % 3 === 1
						? [{ paragraph: 1, action: 'expression', character: who, expression: 'smile' }]
						: [{ paragraph: 2, action: 'exit', character: people[(t + 1) % people.length] ?? 'Ana' }];
			await stageCues.save(tx, { turnId, messageId: gm.id, cues: list });
			cues.set(gm.id, list);
			ids.push(player.id, gm.id);
		}
	});
	return { ids, cues };
}

describe('GET …/backlog', () => {
	it('pages back through the play log with each page’s cues, the stage as the page begins, and the images', async () => {
		const { app, alice, as } = await harness();
		const api = as(alice);
		const id = await newSession(api);
		const { ids, cues } = await app.sessions.use(id, (s) => seedLog(s, 30));

		const latest = await bodyOf(await api.get(`/api/v1/sessions/${id}/backlog?limit=10`), BacklogPage);
		expect(latest.messages.map((m) => m.id)).toEqual(ids.slice(-10));
		expect(latest.nextBefore).toBe(ids[ids.length - 10]);
		const onPage = new Set(latest.messages.map((m) => m.id));
		expect(latest.cues.length).toBeGreaterThan(0);
		expect(latest.cues.every((c) => onPage.has(c.messageId))).toBe(true);
		expect(latest.cues.map((c) => c.cue)).toEqual(latest.messages.flatMap((m) => cues.get(m.id) ?? []));
		expect(latest.images.characters.map((c) => c.name).sort()).toEqual(['Ana', 'Bram', 'Kit', 'Old Sal']);
		expect(latest.images.scenes.map((c) => c.url)).toEqual([null, null, null]);

		// Walk back to the start; the last page has no nextBefore and begins on the empty stage.
		const pages: BacklogPage[] = [latest];
		let before = latest.nextBefore;
		while (before !== undefined) {
			const page = await bodyOf(await api.get(`/api/v1/sessions/${id}/backlog?limit=10&before=${before}`), BacklogPage);
			pages.unshift(page);
			before = page.nextBefore;
		}
		expect(pages.flatMap((p) => p.messages.map((m) => m.id))).toEqual(ids);
		expect(pages[0]?.stageBefore).toEqual(EMPTY_STAGE);

		// The whole log folded from the start and any page folded from its stageBefore agree on every paragraph.
		const all = new StageTimeline(
			pages.flatMap((p) => p.messages),
			pages.flatMap((p) => p.cues)
		);
		for (const page of pages) {
			const local = new StageTimeline(page.messages, page.cues, { initial: page.stageBefore });
			for (const m of page.messages) {
				for (let p = 0; p < 3; p++) expect(local.at(m.id, p), `message ${m.id} paragraph ${p}`).toEqual(all.at(m.id, p));
			}
		}
		// And the stage before a late page is not empty: the seeded log put people on stage.
		const stage: StageState = latest.stageBefore;
		expect(stage.background).not.toBeNull();
		expect(Object.values(stage.slots).some((f) => f !== null)).toBe(true);
	});

	it('catches up with ?after= and answers an empty log with the empty stage', async () => {
		const { app, alice, as } = await harness();
		const api = as(alice);
		const id = await newSession(api);
		const empty = await bodyOf(await api.get(`/api/v1/sessions/${id}/backlog`), BacklogPage);
		expect(empty).toMatchObject({ messages: [], cues: [], stageBefore: EMPTY_STAGE });
		expect(empty.nextBefore).toBeUndefined();

		const { ids } = await app.sessions.use(id, (s) => seedLog(s, 3));
		const after = await bodyOf(await api.get(`/api/v1/sessions/${id}/backlog?after=${ids[3] ?? 0}&limit=2`), BacklogPage);
		expect(after.messages.map((m) => m.id)).toEqual(ids.slice(4, 6));
		expect(after.nextBefore).toBeUndefined();
		expect(after.cues.map((c) => c.messageId)).toEqual(after.cues.map(() => ids[5]));
	});

	it('refuses a bad query with 400', async () => {
		const { alice, as } = await harness();
		const api = as(alice);
		const id = await newSession(api);
		for (const q of ['limit=0', 'limit=201', 'limit=ten', 'before=-1', 'after=x']) {
			const res = await api.get(`/api/v1/sessions/${id}/backlog?${q}`);
			expect(res.status, q).toBe(400);
			expect((await bodyOf(res, ErrorBody)).code).toBe('INVALID_QUERY');
		}
	});
});

/** The browser's fetch, answered in process by the route handlers as `api`'s user. */
function fetcherFor(api: Caller): typeof fetch {
	return (input, init) => api.get(input instanceof Request ? input.url : String(input), { signal: init?.signal ?? undefined });
}

describe('one read model of the play log', () => {
	it('plays a stored cue numbered past the GM tool’s bounds on the play page and in the backlog alike', async () => {
		const { app, alice, as } = await harness();
		const api = as(alice);
		const id = await newSession(api);
		const gmId = await app.sessions.use(id, (s) =>
			s.write(async (tx) => {
				await log.append(tx, { role: 'player', body: 'I wait.', turnId: 't1' });
				return (await log.append(tx, { role: 'gm', body: 'Fog.\n\nA bell rings.\n\n@Bram: Who is there?', turnId: 't1' })).id;
			})
		);
		// Well-formed, but past the 500 paragraphs the adv_stage tool allows (an older build, a hand edit).
		const stored = { paragraph: 600, action: 'enter', character: 'Bram', slot: 'left' };
		await app.sessions.use(id, (s) =>
			s.client.execute({
				sql: "INSERT INTO stage_cues (turn_id, message_id, paragraph, ord, cue) VALUES ('t1', ?, 600, 0, ?)",
				args: [gmId, JSON.stringify(stored)]
			})
		);

		// The backlog's read (the API through the browser's parser) and the play page's read agree.
		const page = await fetchLogPage(fetcherFor(api), id, { limit: 10 });
		const view = await app.sessions.use(id, (s) => loadPlayView(s.db, id, { id: 'viewer', language: 'en' }));
		expect(page.cues).toEqual([{ messageId: gmId, paragraph: 600, ord: 0, cue: stored }]);
		expect(view.log.cues).toEqual(page.cues);

		// Both play it before the reply's last paragraph, the one the GM miscounted towards.
		const backlog = new BacklogModel();
		backlog.reset(page);
		expect(backlog.stageAt(gmId, 1).slots.left).toBeNull();
		expect(backlog.stageAt(gmId, 2).slots.left).toEqual({ character: 'Bram' });
		const story = new Story({
			sessionId: id,
			messages: view.log.messages,
			cues: view.log.cues,
			initialStage: view.log.stageBefore,
			warn: () => undefined
		});
		story.configure(0, false);
		while (story.hasNext && story.current?.paragraph !== 2) story.click();
		expect(story.current).toMatchObject({ speaker: 'Bram', text: 'Who is there?' });
		expect(story.stage.slots.left).toEqual({ character: 'Bram' });
	});

	it('answers GET …/images with every character (and expression sprite) and place, its image, whether one is coming and the kind of place', async () => {
		const { app, alice, bob, as } = await harness();
		const api = as(alice);
		const id = await newSession(api);
		await app.sessions.use(id, (s) =>
			s.write(async (tx) => {
				await npcs.register(tx, { name: 'Bram', appearance: 'grey beard' });
				await npcs.setSprite(tx, 'Bram', 'abc123.png');
				await scenes.register(tx, { name: 'Harbour', description: 'fog over the quay' });
				await imageOrders.place(tx, { target: 'scene', targetName: 'Harbour', prompt: 'fog' });
				const smile = await imageOrders.place(tx, { target: 'npc', targetName: 'Bram(smile)', prompt: 'smile' });
				await tx
					.update(sessionSchema.imageOrders)
					.set({ status: 'done', image: 'def456.png', turnId: 't' })
					.where(eq(sessionSchema.imageOrders.id, smile.id));
				await imageOrders.place(tx, { target: 'npc', targetName: 'Bram(angry)', prompt: 'angry' });
				// An expression of nobody registered is no one's sprite.
				await imageOrders.place(tx, { target: 'npc', targetName: 'Ghost(sad)', prompt: 'sad' });
			})
		);
		const images = await (await api.get(`/api/v1/sessions/${id}/images`)).json();
		expect(images).toEqual({
			characters: [
				{ name: 'Bram', url: `/api/v1/sessions/${id}/images/abc123.png`, status: 'ready' },
				{ name: 'Bram', expression: 'smile', url: `/api/v1/sessions/${id}/images/def456.png`, status: 'ready' },
				{ name: 'Bram', expression: 'angry', url: null, status: 'pending' }
			],
			scenes: [{ name: 'Harbour', url: null, status: 'pending', kind: 'street' }]
		});
		// The same list comes with every log page.
		const page: LogPageDto = await fetchLogPage(fetcherFor(api), id, { limit: 1 });
		expect(page.images).toEqual(images);
		expect((await as(bob).get(`/api/v1/sessions/${id}/images`)).status).toBe(404);
	});
});

describe('GET …/journal/recent', () => {
	it('gives the latest entries first and pages back with nextBefore', async () => {
		const { app, alice, as } = await harness();
		const api = as(alice);
		const id = await newSession(api);
		await app.sessions.use(id, (s) =>
			s.write(async (tx) => {
				for (let i = 1; i <= 7; i++) await journal.append(tx, { body: `Day ${i}` });
			})
		);
		const first = await bodyOf(await api.get(`/api/v1/sessions/${id}/journal/recent?limit=3`), JournalPage);
		expect(first.entries.map((e) => e.body)).toEqual(['Day 5', 'Day 6', 'Day 7']);
		const second = await bodyOf(
			await api.get(`/api/v1/sessions/${id}/journal/recent?limit=3&before=${first.nextBefore ?? 0}`),
			JournalPage
		);
		expect(second.entries.map((e) => e.body)).toEqual(['Day 2', 'Day 3', 'Day 4']);
		const last = await bodyOf(await api.get(`/api/v1/sessions/${id}/journal/recent?limit=3&before=${second.nextBefore ?? 0}`), JournalPage);
		expect(last.entries.map((e) => e.body)).toEqual(['Day 1']);
		expect(last.nextBefore).toBeUndefined();
		expect((await api.get(`/api/v1/sessions/${id}/journal/recent?limit=0`)).status).toBe(400);
	});
});

describe('PUT …/documents/{docId}', () => {
	const SECRET = 'SECRET-the-harbourmaster-sank-the-ship';

	async function seedDocs(app: ApiHarness['app'], id: string) {
		return app.sessions.use(id, (s) =>
			s.write(async (tx) => ({
				shared: await documents.create(tx, { title: 'World', body: '# Harbour\nFog and gulls.', ref: 'world' }),
				hidden: await documents.create(tx, { title: 'GM notes', body: `# Truth\n${SECRET}`, gmOnly: true })
			}))
		);
	}

	it('saves the player’s edit, re-chunks its sections, and keeps visibility and ref', async () => {
		const { app, alice, as } = await harness();
		const api = as(alice);
		const id = await newSession(api);
		const { shared } = await seedDocs(app, id);
		const res = await api.put(`/api/v1/sessions/${id}/documents/${shared.id}`, {
			title: '  World map ',
			body: '# Harbour\nFog.\n\n# Lighthouse\nA lamp that never sleeps.'
		});
		expect(res.status).toBe(200);
		expect(await bodyOf(res, Document)).toMatchObject({
			id: shared.id,
			title: 'World map',
			body: '# Harbour\nFog.\n\n# Lighthouse\nA lamp that never sleeps.'
		});
		expect(await bodyOf(await api.get(`/api/v1/sessions/${id}/documents/${shared.id}`), Document)).toMatchObject({ title: 'World map' });
		const stored = await app.sessions.use(id, async (s) => ({
			doc: await documents.get(s.db, shared.id),
			sections: await documents.sectionsOf(s.db, shared.id)
		}));
		expect(stored.doc).toMatchObject({ gmOnly: false, ref: 'world' });
		expect(stored.sections.map((x) => x.path)).toEqual(['World map › Harbour', 'World map › Lighthouse']);

		// The body alone keeps the title.
		const again = await bodyOf(await api.put(`/api/v1/sessions/${id}/documents/${shared.id}`, { body: '' }), Document);
		expect(again).toMatchObject({ title: 'World map', body: '' });
	});

	it('answers a GM-only document exactly like a missing one and leaves it untouched', async () => {
		const { app, alice, as, seenBodies } = await harness();
		const api = as(alice);
		const id = await newSession(api);
		const { hidden } = await seedDocs(app, id);
		const hiddenRes = await api.put(`/api/v1/sessions/${id}/documents/${hidden.id}`, { body: 'overwritten' });
		const missingRes = await api.put(`/api/v1/sessions/${id}/documents/999999`, { body: 'overwritten' });
		expect(hiddenRes.status).toBe(404);
		expect(await hiddenRes.json()).toEqual(await missingRes.json());
		expect((await api.put(`/api/v1/sessions/${id}/documents/not-a-number`, { body: 'x' })).status).toBe(404);
		const doc = await app.sessions.use(id, (s) => documents.get(s.db, hidden.id));
		expect(doc.body).toBe(`# Truth\n${SECRET}`);
		expect((await Promise.all(seenBodies)).join('\n')).not.toContain(SECRET);
	});

	it('refuses invalid bodies with 400 and other content types with 415', async () => {
		const { app, alice, as } = await harness();
		const api = as(alice);
		const id = await newSession(api);
		const { shared } = await seedDocs(app, id);
		const path = `/api/v1/sessions/${id}/documents/${shared.id}`;
		const bad: unknown[] = [
			{},
			{ body: 3 },
			{ title: '   ', body: 'x' },
			{ title: 'a\nb', body: 'x' },
			{ title: 'x'.repeat(201), body: 'x' },
			{ body: 'x', gmOnly: true },
			{ body: 'x'.repeat(200_001) },
			'[1]',
			'not json'
		];
		for (const body of bad) {
			const res = await api.put(path, body);
			expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
		}
		expect((await api.put(path, 'body=x', { headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(415);
		expect((await app.sessions.use(id, (s) => documents.get(s.db, shared.id))).body).toBe('# Harbour\nFog and gulls.');
	});

	it('is found by keyword recall at once and by vector recall after the embed that precedes the next turn', async () => {
		const { app, alice, as, mock } = await harness();
		const api = as(alice);
		const id = await newSession(api);
		const { shared } = await seedDocs(app, id);
		await app.sessions.use(id, (s) => embedPending(s, app.embedder));
		const phrase = 'A brass astrolabe hides under the third step of the lighthouse stair.';
		const edited = await api.put(`/api/v1/sessions/${id}/documents/${shared.id}`, {
			body: `# Harbour\nFog and gulls.\n\n# Lighthouse\n${phrase}`
		});
		expect(edited.status).toBe(200);

		// The edit adds the Lighthouse section; the Harbour section is unchanged and keeps its vector.
		const lighthouseSections = () =>
			app.sessions.use(id, async (s) => {
				const rows = await s.db
					.select({ id: sessionSchema.sections.id })
					.from(sessionSchema.sections)
					.where(
						and(
							eq(sessionSchema.sections.kind, 'document'),
							eq(sessionSchema.sections.recordId, shared.id),
							eq(sessionSchema.sections.path, 'World › Lighthouse')
						)
					);
				return rows.map((r) => r.id);
			});
		const vectorHits = () =>
			app.sessions.use(id, async (s) => {
				const [query] = await app.embedder.embed(['brass astrolabe lighthouse stair']);
				if (!query) throw new Error('no query vector');
				const hits = await vectorSearch(s.db, query, app.embedder.id, { includeGmOnly: false }, 20);
				return hits.map((x) => x.id);
			});
		const embeddedCount = (ids: number[]) =>
			app.sessions.use(id, async (s) => {
				const rows = await s.db.all(
					sql`SELECT count(*) AS n FROM ${sql.raw(VECTOR_TABLE)} v JOIN sections s ON s.id = v.section_id AND s.content_hash = v.content_hash
						WHERE v.section_id IN (${sql.join(ids, sql`, `)})`
				);
				return v.parse(v.array(v.object({ n: v.number() })), rows)[0]?.n ?? 0;
			});

		// Keyword side: at once, before any embedding; the GM-only document stays out.
		const docSections = await lighthouseSections();
		expect(docSections.length).toBeGreaterThan(0);
		const keyword = await app.sessions.use(id, (s) => recall(s.db, 'astrolabe'));
		expect(keyword.map((x) => x.sectionId).some((x) => docSections.includes(x))).toBe(true);
		expect(keyword.find((x) => docSections.includes(x.sectionId))?.path).toBe('World › Lighthouse');
		// Vector side: the edited sections wait in the queue and are not in the vector table yet.
		const queued = await app.sessions.use(id, (s) =>
			s.db.select().from(sessionSchema.embedQueue).where(inArray(sessionSchema.embedQueue.sectionId, docSections))
		);
		expect(queued.length).toBe(docSections.length);
		expect(await embeddedCount(docSections)).toBe(0);
		expect((await vectorHits()).some((x) => docSections.includes(x))).toBe(false);

		// The next turn: by the time the GM is first asked, the edit is embedded; its recall finds it.
		let embeddedWhenAsked = -1;
		mock?.setHandler(async (request) => {
			const turn = lastTurn(request);
			if (turn.kind === 'tool') return { text: `Found: ${turn.results.map((r) => r.content).join(' | ')}` };
			embeddedWhenAsked = await embeddedCount(docSections);
			return { toolCalls: [{ name: 'recall', arguments: { query: 'brass astrolabe' } }] };
		});
		const accepted = await bodyOf(
			await api.post(`/api/v1/sessions/${id}/turns`, { text: 'Where is the astrolabe?', idempotencyKey: 'panels-recall-0001' }),
			AcceptedTurn
		);
		const done = await waitForTurn(api, id, accepted.turnId);
		expect(done).toMatchObject({ status: 'committed' });
		expect(embeddedWhenAsked).toBe(docSections.length);
		const reply = v.parse(v.object({ reply: v.object({ text: v.string() }) }), done).reply.text;
		expect(reply).toContain('World › Lighthouse');
		expect(reply).toContain('astrolabe');
		expect((await vectorHits()).some((x) => docSections.includes(x))).toBe(true);
	});
});

describe('ownership', () => {
	it('answers another user with the 404 of a missing session on every panel route and changes nothing', async () => {
		const { app, alice, bob, as } = await harness();
		const api = as(alice);
		const id = await newSession(api);
		const { shared } = await app.sessions.use(id, (s) =>
			s.write(async (tx) => ({ shared: await documents.create(tx, { title: 'World', body: 'Fog.' }) }))
		);
		const bobApi = as(bob);
		const missing = await (await bobApi.get('/api/v1/sessions/0123456789abcdef0123456789/backlog')).json();
		for (const [method, path] of [
			['GET', '/backlog'],
			['GET', '/messages'],
			['GET', '/images'],
			['GET', '/journal/recent'],
			['PUT', `/documents/${shared.id}`]
		] as const) {
			const res = await bobApi.request(method, `/api/v1/sessions/${id}${path}`, method === 'PUT' ? { body: { body: 'Mine now.' } } : {});
			expect(res.status, `${method} ${path}`).toBe(404);
			expect(await res.json()).toEqual(missing);
		}
		expect((await app.sessions.use(id, (s) => documents.get(s.db, shared.id))).body).toBe('Fog.');
		expect((await as(null).get(`/api/v1/sessions/${id}/backlog`)).status).toBe(401);
	});
});
