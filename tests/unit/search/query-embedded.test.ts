import { describe, it, expect } from 'vitest';
import { OfflineEmbedder, withQueryEmbedded, type Embedder } from '../../../src/lib/server/search';

function counting(inner: Embedder): Embedder & { calls: string[][] } {
	const calls: string[][] = [];
	return {
		id: inner.id,
		dimensions: inner.dimensions,
		similarityFloor: inner.similarityFloor,
		calls,
		embed: (texts, signal) => (calls.push(texts), inner.embed(texts, signal))
	};
}

describe('withQueryEmbedded', () => {
	it('embeds the query once up front and answers recall’s request from it', async () => {
		const inner = counting(new OfflineEmbedder(64));
		const prepared = await withQueryEmbedded(inner, '  Where is the North Gate? ');
		expect(inner.calls).toHaveLength(1);
		const [again] = await prepared.embed(inner.calls[0] ?? []);
		const [direct] = await new OfflineEmbedder(64).embed(inner.calls[0] ?? []);
		expect(inner.calls).toHaveLength(1);
		expect(again && direct && Array.from(again)).toEqual(direct && Array.from(direct));
		// Anything else still goes to the real embedder.
		await prepared.embed(['something else']);
		expect(inner.calls).toHaveLength(2);
		expect(prepared.id).toBe(inner.id);
	});
});
