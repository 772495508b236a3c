/**
 * Fusion with a meaning side as strong as a neural model: a deterministic fake embedder that is right
 * on some questions (synonyms and paraphrase, where words fail) and wrong on others (it points at an
 * unrelated topic, where words succeed). Fused recall must not lose to either side alone.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../helpers/env';
import type { SessionDb } from '../../../src/lib/server/db';
import { embedPending, recall, type Embedder } from '../../../src/lib/server/search';
import { analyseQuery } from '../../../src/lib/server/search/query';
import { vectorSearch } from '../../../src/lib/server/search/vector-search';
import { normaliseByTop, normaliseFromFloor, weightedScoreFusion } from '../../../src/lib/server/search/fuse';
import { insertSections } from './factory';

let env: TestEnv;
beforeEach(async () => {
	env = await testEnv();
});
afterEach(async () => {
	await env.cleanup();
});

describe('score fusion', () => {
	it('weights normalised scores and keeps the order of first appearance on ties', () => {
		const words = normaliseByTop([
			{ id: 1, score: 8 },
			{ id: 2, score: 4 }
		]);
		expect(words).toEqual([
			{ id: 1, score: 1 },
			{ id: 2, score: 0.5 }
		]);
		const meaning = normaliseFromFloor(
			[
				{ id: 3, score: 0.7 },
				{ id: 2, score: 0.5 },
				{ id: 4, score: 0.2 }
			],
			0.3
		);
		expect(meaning.map((h) => [h.id, Number(h.score.toFixed(3))])).toEqual([
			[3, 1],
			[2, 0.5],
			[4, 0]
		]);
		const fused = weightedScoreFusion([
			{ weight: 1, hits: words },
			{ weight: 1, hits: meaning }
		]);
		expect(fused.map((f) => f.id)).toEqual([1, 2, 3, 4]);
		expect(
			weightedScoreFusion([
				{ weight: 1, hits: words },
				{ weight: 0.1, hits: meaning }
			]).map((f) => f.id)
		).toEqual([1, 2, 3, 4]);
		expect(normaliseByTop([])).toEqual([]);
	});
});

/** Twelve topics; each has three sections that name it in their own words. */
const TOPICS = [
	['forge', 'The smith Marta hammers blades at the forge by the quay.'],
	['lighthouse', 'Edrin keeps the lamp of the lighthouse on the cliffs.'],
	['tavern', 'Sailors gamble with bone dice in the Drowned Lantern tavern.'],
	['crypt', 'Water fills the crypt under the chapel after every storm.'],
	['market', 'Salt and herring are sold at the market by the canal.'],
	['library', 'The archivist guards the library of sealed charters.'],
	['mill', 'The miller grinds rye at the mill on the weir.'],
	['garrison', 'The garrison drills on the square below the keep.'],
	['orchard', 'Apples ripen in the orchard behind the abbey.'],
	['docks', 'Barges unload timber at the docks before dawn.'],
	['observatory', 'An astronomer charts comets from the observatory dome.'],
	['apiary', 'Bees hum in the apiary beside the herb garden.']
] as const;
const DIMS = TOPICS.length + 4;

/**
 * Questions: `lexical` share words with the answer; `semantic` share none with it (synonyms,
 * paraphrase) but name another place, so the word side is confidently wrong on them.
 */
const QUESTIONS: readonly { q: string; topic: number; kind: 'lexical' | 'semantic' }[] = [
	{ q: 'who hammers blades at the forge', topic: 0, kind: 'lexical' },
	{ q: 'who keeps the lighthouse lamp', topic: 1, kind: 'lexical' },
	{ q: 'bone dice tavern', topic: 2, kind: 'lexical' },
	{ q: 'crypt flooding after storms', topic: 3, kind: 'lexical' },
	{ q: 'herring market', topic: 4, kind: 'lexical' },
	{ q: 'sealed charters archivist', topic: 5, kind: 'lexical' },
	{ q: 'where is grain turned into flour, past the market', topic: 6, kind: 'semantic' },
	{ q: 'soldiers practising formations, seen from the tavern', topic: 7, kind: 'semantic' },
	{ q: 'fruit trees near the monastery, not the library', topic: 8, kind: 'semantic' },
	{ q: 'wharf where lumber is landed, far from the forge', topic: 9, kind: 'semantic' },
	{ q: 'stargazer watching shooting stars above the lighthouse', topic: 10, kind: 'semantic' },
	{ q: 'honey makers near the healing plants by the crypt', topic: 11, kind: 'semantic' }
];

/**
 * A fake neural model: a section's vector is its topic's axis (plus a little per-section tilt); a
 * question's vector is right for semantic questions and points at another topic for lexical ones.
 */
class TopicEmbedder implements Embedder {
	readonly id = 'fake-topic-model';
	readonly dimensions = DIMS;
	readonly similarityFloor = 0.3;

	async embed(texts: string[]): Promise<Float32Array[]> {
		return texts.map((text) => {
			const v = new Float32Array(DIMS);
			const question = QUESTIONS.find((x) => analyseQuery(x.q).text === text);
			if (question) {
				v[question.kind === 'semantic' ? question.topic : (question.topic + 5) % TOPICS.length] = 1;
				return v;
			}
			const topic = TOPICS.findIndex(([name]) => text.includes(`› ${name} ›`));
			const n = Number(/#(\d)/.exec(text)?.[1] ?? 0);
			v[Math.max(0, topic)] = 1;
			v[TOPICS.length + n] = 0.2;
			return v;
		});
	}
}

async function seed(s: SessionDb, embedder: Embedder) {
	await s.write((tx) =>
		insertSections(
			tx,
			TOPICS.flatMap(([name, body], t) =>
				[0, 1, 2].map((n) => ({ ref: `${t}`, path: `Places › ${name} › #${n}`, body: n === 0 ? body : `Notes on the ${name}, part ${n}.` }))
			)
		)
	);
	await embedPending(s, embedder);
}

/** Share of questions with a section of the right topic in the top k. */
function hitRate(results: readonly (readonly string[])[], k: number): number {
	return results.filter((refs, i) => refs.slice(0, k).includes(String(QUESTIONS[i]?.topic))).length / QUESTIONS.length;
}

describe('fusion with a strong meaning side', () => {
	it('does not lose to words alone or to vectors alone, and finds both kinds of question', async () => {
		const embedder = new TopicEmbedder();
		await env.app.sessions.use(await env.sessionId(), async (s) => {
			await seed(s, embedder);
			const k = 3;
			const refsOf = (hits: { ref: string | null }[]) => hits.map((h) => h.ref ?? '');
			const words = await Promise.all(QUESTIONS.map(async ({ q }) => refsOf(await recall(s.db, q, { k }))));
			const vectors = await Promise.all(
				QUESTIONS.map(async ({ q }) => {
					const [vec] = await embedder.embed([analyseQuery(q).text]);
					if (!vec) return [];
					const hits = await vectorSearch(s.db, vec, embedder.id, { includeGmOnly: true }, k);
					const rows = await Promise.all(hits.map((h) => s.db.query.sections.findFirst({ where: (t, { eq }) => eq(t.id, h.id) })));
					return rows.map((r) => r?.ref ?? '');
				})
			);
			const fused = await Promise.all(QUESTIONS.map(async ({ q }) => refsOf(await recall(s.db, q, { k, embedder }))));

			// Each side alone gets only its own half.
			expect(hitRate(words, k)).toBe(0.5);
			expect(hitRate(vectors, k)).toBe(0.5);
			// Fused: every question, whichever side knew it.
			expect(hitRate(fused, k)).toBe(1);
			// And the side that knows leads: the answer is first.
			expect(hitRate(fused, 1)).toBeGreaterThanOrEqual(Math.max(hitRate(words, 1), hitRate(vectors, 1)));
		});
	});

	it('an embedder that is wrong on everything does not drag the word ranking below words alone', async () => {
		const embedder = new TopicEmbedder();
		const liar: Embedder = {
			id: embedder.id,
			dimensions: embedder.dimensions,
			similarityFloor: embedder.similarityFloor,
			embed: async (texts) => {
				const out = await embedder.embed(texts);
				// Questions point at the wrong topic, always.
				return out.map((v, i) => {
					const question = QUESTIONS.find((x) => analyseQuery(x.q).text === texts[i]);
					if (!question) return v;
					const wrong = new Float32Array(DIMS);
					wrong[(question.topic + 5) % TOPICS.length] = 1;
					return wrong;
				});
			}
		};
		await env.app.sessions.use(await env.sessionId(), async (s) => {
			await seed(s, liar);
			const k = 3;
			const lexical = QUESTIONS.filter((x) => x.kind === 'lexical');
			for (const { q, topic } of lexical) {
				const alone = (await recall(s.db, q, { k })).map((h) => h.ref);
				const fused = (await recall(s.db, q, { k, embedder: liar })).map((h) => h.ref);
				expect(alone[0]).toBe(String(topic));
				expect(fused.slice(0, k)).toContain(String(topic));
			}
		});
	});
});
