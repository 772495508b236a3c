import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../helpers/env';
import { recall } from '../../../src/lib/server/search';
import { RANK_MAX_DOCS } from '../../../src/lib/server/search/keyword';
import { insertSections } from './factory';

let env: TestEnv;
beforeEach(async () => {
	env = await testEnv();
});
afterEach(async () => {
	await env.cleanup();
});

describe('recall with terms too common to rank', () => {
	it('puts sections holding every term first and still ranks the rare term', async () => {
		await env.app.sessions.use(await env.sessionId(), async (s) => {
			const filler = Array.from({ length: RANK_MAX_DOCS + 100 }, (_, i) => ({
				path: `Log › ${i}`,
				body: `A lantern burns in room ${i}. 提灯が灯る。`
			}));
			await s.write(async (tx) => {
				await insertSections(tx, filler.slice(0, 1000));
				await insertSections(tx, [{ ref: 'both', path: 'NPCs › Quillon', body: 'Quillon carries the blue lantern.' }]);
				await insertSections(tx, filler.slice(1000));
				await insertSections(tx, [{ ref: 'rare-only', path: 'NPCs › Quillon’s sister', body: 'Quillon has a sister.' }]);
				await insertSections(tx, [{ ref: 'secret', path: 'Truths', body: 'Quillon stole the lantern.', gmOnly: true }]);
			});
			// Sections with only the common word are left to the meaning side (none here: no embedder).
			const hits = await recall(s.db, 'Quillon lantern', { k: 3 });
			expect(hits.map((h) => h.ref)).toEqual(['both', 'rare-only']);
			// Only common terms: still answers (newest first), and never GM-only sections.
			const common = await recall(s.db, '提灯 lantern', { k: 5 });
			expect(common).toHaveLength(5);
			expect(common.map((h) => h.ref)).not.toContain('secret');
		});
	});
});
