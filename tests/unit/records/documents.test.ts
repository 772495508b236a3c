import { describe, it, expect } from 'vitest';
import { documents } from '../../../src/lib/server/records';
import { useSessions, sectionRows, trigram, queued, clearQueue, caught, checkFtsIntegrity } from './helpers';

const session = useSessions();

const GEOGRAPHY = [
	'王都の地理。',
	'# 北部',
	'寒冷な高地。',
	'## 北門',
	'北門の衛兵は夜に交代する。',
	'## 港',
	'船が停泊する。',
	'# 南部',
	'暖かい平野。'
].join('\n');

describe('documents', () => {
	it('indexes a document by heading path and finds a section by a Japanese substring', () =>
		session(async (s) => {
			const doc = await s.write((tx) => documents.create(tx, { title: '地理', body: GEOGRAPHY, ref: 'geo' }));
			const rows = await sectionRows(s, 'document');
			expect(rows.map((r) => r.path)).toEqual(['地理', '地理 › 北部', '地理 › 北部 › 北門', '地理 › 北部 › 港', '地理 › 南部']);
			expect(rows.every((r) => r.recordId === doc.id && r.ref === 'geo' && !r.gmOnly)).toBe(true);
			const gate = rows.find((r) => r.path.endsWith('北門'));
			expect(await trigram(s, '北門の')).toEqual([gate?.id]);
			expect((await documents.get(s.db, doc.id)).body).toBe(GEOGRAPHY);
		}));

	it('on update keeps unchanged sections (and their vectors) and re-queues only what changed', () =>
		session(async (s) => {
			const doc = await s.write((tx) => documents.create(tx, { title: '地理', body: GEOGRAPHY }));
			const before = await sectionRows(s, 'document');
			await clearQueue(s);
			await s.write((tx) => documents.update(tx, doc.id, { body: GEOGRAPHY.replace('船が停泊する。', '船が焼けた。') }));
			const after = await sectionRows(s, 'document');
			expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
			const harbour = after.find((r) => r.path === '地理 › 北部 › 港');
			expect(harbour?.body).toBe('船が焼けた。');
			expect(await queued(s)).toEqual([harbour?.id]);
			expect(await trigram(s, '停泊す')).toEqual([]);
			expect(await trigram(s, '船が焼')).toEqual([harbour?.id]);

			// Inserting a section in the middle moves later sections without re-queuing them.
			await clearQueue(s);
			await s.write((tx) => documents.update(tx, doc.id, { body: GEOGRAPHY.replace('# 南部', '## 砦\n古い砦。\n# 南部') }));
			const moved = await sectionRows(s, 'document');
			expect(moved.map((r) => r.path)).toEqual([
				'地理',
				'地理 › 北部',
				'地理 › 北部 › 北門',
				'地理 › 北部 › 港',
				'地理 › 北部 › 砦',
				'地理 › 南部'
			]);
			expect(moved.find((r) => r.path === '地理 › 南部')?.id).toBe(before.find((r) => r.path === '地理 › 南部')?.id);
			expect(await queued(s)).toHaveLength(2); // the new 砦 and the rewritten 港 (back to its old text)
			await checkFtsIntegrity(s);
		}));

	it('flags the sections of GM-only documents and follows the flag when it changes', () =>
		session(async (s) => {
			const secret = await s.write((tx) => documents.create(tx, { title: '真相', body: '# 黒幕\n領主が黒幕。', gmOnly: true }));
			await s.write((tx) => documents.create(tx, { title: 'Premise', body: 'A quiet town.' }));
			const flags = async () => (await sectionRows(s, 'document')).map((r) => [r.path, r.gmOnly]);
			expect(await flags()).toEqual([
				['真相 › 黒幕', true],
				['Premise', false]
			]);
			await s.write((tx) => documents.update(tx, secret.id, { gmOnly: false }));
			expect((await flags())[0]).toEqual(['真相 › 黒幕', false]);
			await s.write((tx) => documents.update(tx, secret.id, { gmOnly: true }));
			expect((await flags())[0]).toEqual(['真相 › 黒幕', true]);
		}));

	it('lists and builds the table of contents with or without GM-only documents', () =>
		session(async (s) => {
			const geo = await s.write((tx) => documents.create(tx, { title: '地理', body: GEOGRAPHY }));
			const secret = await s.write((tx) => documents.create(tx, { title: '真相', body: '# 黒幕\n領主。', gmOnly: true }));
			const long = await s.write((tx) => documents.create(tx, { title: 'Lore', body: `# Ages\n${'Old days went by. '.repeat(200)}` }));
			expect((await documents.list(s.db, { includeGmOnly: false })).map((d) => d.id)).toEqual([geo.id, long.id]);
			expect(await documents.list(s.db, { includeGmOnly: true })).toHaveLength(3);
			expect(await documents.toc(s.db, { includeGmOnly: true })).toEqual([
				{ id: geo.id, title: '地理', gmOnly: false, headings: ['地理 › 北部', '地理 › 北部 › 北門', '地理 › 北部 › 港', '地理 › 南部'] },
				{ id: secret.id, title: '真相', gmOnly: true, headings: ['真相 › 黒幕'] },
				// A windowed section appears once.
				{ id: long.id, title: 'Lore', gmOnly: false, headings: ['Lore › Ages'] }
			]);
			expect((await documents.toc(s.db, { includeGmOnly: false })).map((t) => t.title)).toEqual(['地理', 'Lore']);
		}));

	it('reads the sections under a heading', () =>
		session(async (s) => {
			const doc = await s.write((tx) => documents.create(tx, { title: '地理', body: GEOGRAPHY }));
			expect((await documents.sectionsOf(s.db, doc.id, { path: '地理 › 北部' })).map((x) => x.body)).toEqual([
				'寒冷な高地。',
				'北門の衛兵は夜に交代する。',
				'船が停泊する。'
			]);
			expect(await caught(() => documents.sectionsOf(s.db, doc.id, { path: '地理 › 東部' }))).toMatchObject({ code: 'not_found' });
		}));

	it('deletes a document with its sections', () =>
		session(async (s) => {
			const doc = await s.write((tx) => documents.create(tx, { title: '地理', body: GEOGRAPHY }));
			await s.write((tx) => documents.delete(tx, doc.id));
			expect(await sectionRows(s, 'document')).toEqual([]);
			expect(await trigram(s, '北門の')).toEqual([]);
			expect(await caught(() => documents.get(s.db, doc.id))).toMatchObject({ code: 'not_found' });
			expect(await caught(() => s.write((tx) => documents.update(tx, doc.id, { body: 'x' })))).toMatchObject({ code: 'not_found' });
		}));
});
