import { describe, expect, it } from 'vitest';
import { documents, journal, state } from '../../../../src/lib/server/records';
import { embedPending, EmbeddingError, type Embedder } from '../../../../src/lib/server/search';
import { gmToolMap, runToolCall } from '../../../../src/lib/server/tools';
import { dump, embedder, json, useTurns } from './helpers';

const withTurn = useTurns();

const WORLD = `Intro text.

# Geography
## North
### North Gate
The guard Bram keeps the gate.
## South
Marshes.

# Magic
No telephones exist; messages travel by raven.`;

describe('recall', () => {
	it('returns sections with kind, path, snippet and recordId, GM-only ones included', async () => {
		await withTurn(async (t) => {
			const [world, secrets] = await t.s.write(async (tx) => [
				await documents.create(tx, { title: 'World', body: WORLD }),
				await documents.create(tx, { title: 'Secrets', body: 'Bram is the lost heir.', gmOnly: true })
			]);
			const out = json(await t.ok('recall', { query: 'Bram' }));
			const hits = out.hits;
			if (!Array.isArray(hits)) throw new Error('no hits');
			expect(hits).toContainEqual(
				expect.objectContaining({ kind: 'document', recordId: world.id, path: 'World › Geography › North › North Gate' })
			);
			expect(hits).toContainEqual(expect.objectContaining({ kind: 'document', recordId: secrets.id, path: 'Secrets' }));
			const first: unknown = hits[0];
			expect(first).toMatchObject({ snippet: expect.stringContaining('Bram') });
		});
	});

	it('filters by kind and says plainly when nothing matches', async () => {
		await withTurn(async (t) => {
			await t.s.write((tx) => documents.create(tx, { title: 'World', body: WORLD }));
			await t.ok('journal_append', { entry: 'Bram waved at the party.' });
			const journalOnly = json(await t.ok('recall', { query: 'Bram', kinds: ['journal'] }));
			expect(journalOnly.hits).toEqual([expect.objectContaining({ kind: 'journal', path: 'Journal › #1' })]);
			const none = await t.ok('recall', { query: 'zeppelin' });
			expect(none).toMatch(/^No records match "zeppelin"/);
			expect(none).toMatch(/do not invent/);
		});
	});
});

describe('recall when the embedding service fails', () => {
	it('still answers from the keyword side and says so', async () => {
		await withTurn(async (t) => {
			await t.s.write((tx) => documents.create(tx, { title: 'World', body: WORLD }));
			await embedPending(t.s, embedder);
			let calls = 0;
			const down: Embedder = {
				id: embedder.id,
				dimensions: embedder.dimensions,
				async embed() {
					calls++;
					throw new EmbeddingError('embedding service returned 503', 503);
				}
			};
			const r = await runToolCall(gmToolMap(), { id: 'c', name: 'recall', arguments: '{"query":"Bram"}' }, { ...t.ctx, embedder: down });
			expect(calls).toBe(1);
			expect(r).toMatchObject({ isError: false, ran: true });
			const out = json(r.content);
			expect(out.note).toMatch(/keyword matches only/);
			expect(out.hits).toContainEqual(expect.objectContaining({ path: 'World › Geography › North › North Gate' }));
		});
	});
});

describe('read_document', () => {
	it('reads a whole document by id or title, and one section by heading path', async () => {
		await withTurn(async (t) => {
			const doc = await t.s.write((tx) => documents.create(tx, { title: 'World', body: WORLD }));
			const whole = await t.ok('read_document', { id: doc.id });
			expect(whole).toContain(`Document #${doc.id} "World"`);
			expect(whole).toContain('### North Gate');
			expect(whole).toContain('raven');
			expect(await t.ok('read_document', { title: 'world' })).toBe(whole);

			const north = await t.ok('read_document', { id: doc.id, section: 'Geography > North' });
			expect(north).toContain('## World › Geography › North › North Gate\nThe guard Bram keeps the gate.');
			expect(north).not.toContain('Marshes');
			expect(north).not.toContain('raven');
			expect(await t.ok('read_document', { id: doc.id, section: 'World › Geography › North' })).toBe(north);
		});
	});

	it('marks GM-only documents, and answers wrong ids, titles and headings with what exists', async () => {
		await withTurn(async (t) => {
			const doc = await t.s.write((tx) => documents.create(tx, { title: 'Secrets', body: '# Heir\nBram is the heir.', gmOnly: true }));
			expect(await t.ok('read_document', { id: doc.id })).toMatch(/GM-only/);
			const noId = await t.call('read_document', { id: 99 });
			expect(noId).toMatchObject({ isError: true, ran: true });
			expect(noId.content).toMatch(/no document #99/);
			const noTitle = await t.call('read_document', { title: 'Bestiary' });
			expect(noTitle.content).toMatch(/no document titled "Bestiary".*#\d+ "Secrets"/);
			const noSection = await t.call('read_document', { id: doc.id, section: 'Villains' });
			expect(noSection.isError).toBe(true);
			expect(noSection.content).toContain('"Secrets › Heir"');
			expect((await t.call('read_document', {})).content).toMatch(/give the document "id" or its "title"/);
		});
	});
});

describe('read_document on a long document', () => {
	it('cuts the reply and lists the sections to read instead', async () => {
		await withTurn(async (t) => {
			const chapters = Array.from({ length: 12 }, (_, i) => `# Chapter ${i + 1}\n${'Lorem ipsum dolor sit amet. '.repeat(40)}`).join(
				'\n\n'
			);
			const doc = await t.s.write((tx) => documents.create(tx, { title: 'Chronicle', body: chapters }));
			const whole = await t.ok('read_document', { id: doc.id });
			expect(whole).toMatch(/cut at 10000 of \d+ characters; read the rest one section at a time/);
			expect(whole).toContain('"Chronicle › Chapter 12"');
			const one = await t.ok('read_document', { id: doc.id, section: 'Chapter 12' });
			expect(one).toContain('## Chronicle › Chapter 12\nLorem');
			expect(one).not.toContain('cut at');
		});
	});
});

describe('get_state / update_state', () => {
	it('applies a merge patch and reports what changed and what was removed', async () => {
		await withTurn(async (t) => {
			await t.ok('update_state', {
				patch: { location: 'North Gate', hp: 10, inventory: ['rope'], flags: { gate_open: false, met_bram: true } }
			});
			const out = json(await t.ok('update_state', { patch: { hp: 7, flags: { gate_open: true }, location: null } }));
			expect(out).toEqual({ version: 2, changed: { hp: 7, flags: { gate_open: true, met_bram: true } }, removed: ['location'] });
			expect(json(await t.ok('get_state'))).toEqual({
				version: 2,
				state: { hp: 7, inventory: ['rope'], flags: { gate_open: true, met_bram: true } }
			});
			expect(json(await t.ok('get_state', { keys: ['hp', 'mana'] }))).toEqual({ version: 2, state: { hp: 7 }, missing: ['mana'] });
		});
	});
});

describe('journal_append / journal_read', () => {
	it('appends events and reads the latest N, oldest first, or forward from an id', async () => {
		await withTurn(async (t) => {
			for (const n of [1, 2, 3, 4]) expect(await t.ok('journal_append', { entry: `event ${n}` })).toBe(`Journal entry #${n} recorded.`);
			expect(json(await t.ok('journal_read', { last: 2 }))).toEqual({
				entries: [
					{ id: 3, entry: 'event 3' },
					{ id: 4, entry: 'event 4' }
				]
			});
			expect(json(await t.ok('journal_read', { after_id: 1, last: 2 }))).toEqual({
				entries: [
					{ id: 2, entry: 'event 2' },
					{ id: 3, entry: 'event 3' }
				]
			});
			expect(await t.ok('journal_read', { after_id: 4 })).toBe('No journal entries after #4.');
		});
	});

	it('reads an empty journal without error', async () => {
		await withTurn(async (t) => {
			expect(await t.ok('journal_read')).toBe('The journal is empty.');
		});
	});
});

describe('memory', () => {
	it('creates, edits (whole or by exact replacement), views, lists and deletes notes', async () => {
		await withTurn(async (t) => {
			expect(await t.ok('memory', { action: 'create', name: 'NPC: Bram', body: 'Gate guard. Likes apples.' })).toBe(
				'Note "NPC: Bram" created.'
			);
			await t.ok('memory', { action: 'create', name: 'Player preferences', body: 'Enjoys riddles.' });
			await t.ok('memory', { action: 'edit', name: 'NPC: Bram', old_text: 'apples', new_text: 'pears' });
			expect(await t.ok('memory', { action: 'view', name: 'NPC: Bram' })).toBe('# NPC: Bram\n\nGate guard. Likes pears.');
			await t.ok('memory', { action: 'edit', name: 'Player preferences', body: 'Enjoys riddles and long dialogue.' });
			expect(json(await t.ok('memory', { action: 'list' }))).toEqual({ notes: ['NPC: Bram', 'Player preferences'] });
			await t.ok('memory', { action: 'delete', name: 'NPC: Bram' });
			expect(json(await t.ok('memory', { action: 'list' }))).toEqual({ notes: ['Player preferences'] });
		});
	});

	it('refuses a duplicate name or an ambiguous replacement with a message the model can act on, staging nothing', async () => {
		await withTurn(async (t) => {
			await t.ok('memory', { action: 'create', name: 'Hooks', body: 'the bell, the bell' });
			const staged = t.staging.size;
			const dup = await t.call('memory', { action: 'create', name: 'Hooks', body: 'x' });
			expect(dup).toMatchObject({ isError: true, ran: true });
			expect(dup.content).toMatch(/already exists; edit it/);
			const twice = await t.call('memory', { action: 'edit', name: 'Hooks', old_text: 'the bell', new_text: 'a bell' });
			expect(twice.content).toMatch(/occurs 2 times/);
			const missing = await t.call('memory', { action: 'view', name: 'Nope' });
			expect(missing.content).toMatch(/no note named "Nope"/);
			expect(t.staging.size).toBe(staged);
		});
	});
});

describe('staged writes in one turn', () => {
	it('are seen by later get_state, journal_read and recall calls of the same turn, and land on commit', async () => {
		await withTurn(async (t) => {
			await t.ok('update_state', { patch: { location: 'Lighthouse' } });
			await t.ok('journal_append', { entry: 'The keeper Odile lit the lamp.' });
			expect(json(await t.ok('get_state'))).toEqual({ version: 1, state: { location: 'Lighthouse' } });
			const hits = json(await t.ok('recall', { query: 'Odile' })).hits;
			expect(hits).toEqual([expect.objectContaining({ kind: 'journal', recordId: 1 })]);
			// Nothing has reached the database yet.
			expect((await state.get(t.s.db)).version).toBe(0);
			expect(await journal.recent(t.s.db, 10)).toEqual([]);

			await t.commit();
			expect(await state.get(t.s.db)).toMatchObject({ version: 1, doc: { location: 'Lighthouse' } });
			expect((await journal.recent(t.s.db, 10)).map((e) => e.body)).toEqual(['The keeper Odile lit the lamp.']);
			const later = t.next();
			expect(json(await later.ok('recall', { query: 'Odile' })).hits).toEqual([expect.objectContaining({ kind: 'journal', recordId: 1 })]);
		});
	});

	it('vanish when the turn does not commit', async () => {
		await withTurn(async (t) => {
			await t.s.write((tx) => documents.create(tx, { title: 'World', body: WORLD }));
			const before = await dump(t.s);
			await t.ok('update_state', { patch: { hp: 3 } });
			await t.ok('journal_append', { entry: 'A wyvern attacked.' });
			await t.ok('memory', { action: 'create', name: 'Wyvern', body: 'Red scales.' });
			await t.ok('story_begin', { type: 'quest', key: 'slay-wyvern', body: 'Slay the wyvern.' });
			await t.ok('story_advance', { action: 'confirm_truth', key: 'wyvern-origin', body: 'The wyvern was summoned.' });
			await t.ok('register_npc', { name: 'Odile', appearance: 'old woman, grey shawl' });
			await t.ok('set_scene', { name: 'Cliffs', description: 'windswept cliffs at night' });
			expect(t.staging.size).toBe(7);
			// The turn failed: its staging is simply dropped.
			expect(await dump(t.s)).toEqual(before);
			const fresh = t.next();
			expect(json(await fresh.ok('get_state'))).toEqual({ version: 0, state: {} });
			expect(await fresh.ok('recall', { query: 'wyvern' })).toMatch(/^No records match/);
		});
	});
});
