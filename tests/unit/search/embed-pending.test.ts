import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { freshSessionPerTest } from '../../helpers/fresh-session';
import { sessionSchema, type SessionDb } from '../../../src/lib/server/db';
import {
	embedPending,
	META_EMBEDDING_DIMENSIONS,
	META_EMBEDDING_MODEL,
	OfflineEmbedder,
	readVectorSpace,
	recall,
	type Embedder
} from '../../../src/lib/server/search';
import { CAMPAIGN } from './campaign';
import { contentHash, insertSections } from './factory';

const use = freshSessionPerTest();
const count = async (s: SessionDb, table: 'embed_queue' | 'section_vectors') => {
	const [row] = await s.db.all<{ n: number }>(sql.raw(`SELECT count(*) AS n FROM ${table}`));
	return row?.n;
};

/** Wraps an embedder to count calls and run a hook while a batch is "at the provider". */
function spy(inner: Embedder, during?: () => Promise<void>) {
	const calls: string[][] = [];
	const embedder: Embedder = {
		id: inner.id,
		dimensions: inner.dimensions,
		similarityFloor: inner.similarityFloor,
		async embed(texts, signal) {
			calls.push(texts);
			await during?.();
			return inner.embed(texts, signal);
		}
	};
	return { embedder, calls };
}

describe('embedPending', () => {
	it('drains the queue in bounded batches and records model and dimension', async () => {
		await use(async (s) => {
			await s.write((tx) => insertSections(tx, CAMPAIGN));
			const { embedder, calls } = spy(new OfflineEmbedder(64));
			const first = await embedPending(s, embedder, { batchSize: 4, maxBatches: 2 });
			expect(first).toEqual({ embedded: 8, remaining: CAMPAIGN.length - 8, recreated: true, drained: false });
			expect(calls.map((c) => c.length)).toEqual([4, 4]);
			const rest = await embedPending(s, embedder, { batchSize: 4 });
			expect(rest).toEqual({ embedded: CAMPAIGN.length - 8, remaining: 0, recreated: false, drained: true });
			expect(await count(s, 'section_vectors')).toBe(CAMPAIGN.length);
			expect(await readVectorSpace(s.db)).toEqual({ model: embedder.id, dimensions: 64 });
			const meta = await s.db.select().from(sessionSchema.meta);
			expect(meta).toEqual(
				expect.arrayContaining([
					{ key: META_EMBEDDING_MODEL, value: embedder.id },
					{ key: META_EMBEDDING_DIMENSIONS, value: '64' }
				])
			);
		});
	});

	it('re-creates the vector table and re-embeds everything when the model changes', async () => {
		await use(async (s) => {
			await s.write((tx) => insertSections(tx, CAMPAIGN));
			await embedPending(s, new OfflineEmbedder(64));
			const other: Embedder = {
				id: 'another-model',
				dimensions: 32,
				similarityFloor: 0.2,
				embed: (t, sig) => new OfflineEmbedder(32).embed(t, sig)
			};
			const partial = await embedPending(s, other, { batchSize: 5, maxBatches: 1 });
			expect(partial).toEqual({ embedded: 5, remaining: CAMPAIGN.length - 5, recreated: true, drained: false });
			expect(await readVectorSpace(s.db)).toEqual({ model: 'another-model', dimensions: 32 });
			// Half-way through the re-embed, search still works (keyword side for the rest).
			expect((await recall(s.db, 'ブラム', { embedder: other })).map((h) => h.ref)).toContain('bram');
			// The old embedder no longer matches the table: recall falls back to keywords, not an error.
			expect((await recall(s.db, 'lighthouse', { embedder: new OfflineEmbedder(64) })).map((h) => h.ref)).toContain('lighthouse');
			await embedPending(s, other);
			expect(await count(s, 'section_vectors')).toBe(CAMPAIGN.length);
			expect(await count(s, 'embed_queue')).toBe(0);
		});
	});

	it('keeps vectors in step with deleted and changed sections', async () => {
		await use(async (s) => {
			const [a, b] = await s.write((tx) => insertSections(tx, CAMPAIGN.slice(0, 2)));
			await embedPending(s, new OfflineEmbedder(64));
			expect(await count(s, 'section_vectors')).toBe(2);
			if (a === undefined || b === undefined) throw new Error('no ids');
			await s.write((tx) => tx.delete(sessionSchema.sections).where(eq(sessionSchema.sections.id, a)));
			expect(await count(s, 'section_vectors')).toBe(1);
			await s.write((tx) =>
				tx
					.update(sessionSchema.sections)
					.set({ body: '書き換えた', contentHash: contentHash('x', '書き換えた') })
					.where(eq(sessionSchema.sections.id, b))
			);
			expect(await count(s, 'section_vectors')).toBe(0);
			expect(await count(s, 'embed_queue')).toBe(1);
			expect(await embedPending(s, new OfflineEmbedder(64))).toMatchObject({ embedded: 1, remaining: 0 });
		});
	});

	it('skips a section whose content changed while it was being embedded, and embeds the new content next time', async () => {
		await use(async (s) => {
			const [id] = await s.write((tx) => insertSections(tx, [{ path: 'NPC › ブラム', body: '古い本文' }]));
			if (id === undefined) throw new Error('no id');
			const newBody = '新しい本文';
			const { embedder, calls } = spy(new OfflineEmbedder(64), async () => {
				if (calls.length === 1)
					await s.write((tx) =>
						tx
							.update(sessionSchema.sections)
							.set({ body: newBody, contentHash: contentHash('NPC › ブラム', newBody) })
							.where(eq(sessionSchema.sections.id, id))
					);
			});
			const result = await embedPending(s, embedder, { maxBatches: 1 });
			expect(result).toMatchObject({ embedded: 0, remaining: 1, drained: false });
			expect(await count(s, 'section_vectors')).toBe(0);
			expect(await embedPending(s, embedder)).toMatchObject({ embedded: 1, remaining: 0, drained: true });
			expect(calls[1]?.[0]).toContain(newBody);
		});
	});
});
