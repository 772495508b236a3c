/**
 * The offline embedder: feature hashing, no network and no model weights.
 *
 * Each text becomes a bag of features — English word stems, character trigrams of English words,
 * kanji and katakana words split at script changes and their character bigrams — hashed into a fixed
 * number of signed buckets and L2-normalised. Cosine similarity is then a weighted overlap of shared
 * words and substrings.
 *
 * What it can match: shared words and names in any script, inflections (gate/gates, forged/forging),
 * partial names and compounds (ブラム in 鍛冶屋ブラム, 北門 in 北門前広場), misspellings that keep most
 * trigrams. What it cannot match: true synonyms (smith ≠ forge-master), paraphrase with no shared word,
 * and anything across languages (北門 ≠ north gate). A neural model behind OpenAICompatibleEmbedder does those.
 */
import type { Embedder } from './embedder';
import { ENGLISH_STOP_WORDS, JAPANESE_STOP_WORDS, normalise, scriptRuns, stem, tokens } from '../text';

export const OFFLINE_EMBEDDER_ID = 'kantera-offline-hash-v1';

/** A whole word (English stem, kanji or katakana run) is the strongest evidence of shared meaning. */
const WORD_WEIGHT = 1;
/** Kanji bigrams are close to words in Japanese (北門, 衛兵), so they weigh like words. */
const KANJI_BIGRAM_WEIGHT = 1;
/** Sub-word n-grams smooth over inflection and spelling; many per word, so each weighs little. */
const NGRAM_WEIGHT = 0.3;
/** A lone kanji (塔, 剣) carries meaning but matches widely. */
const SINGLE_KANJI_WEIGHT = 0.5;
/** Longer runs are sentences, not words: index their bigrams only. */
const MAX_WORD_RUN = 8;
/**
 * Where "unrelated" begins. Hashed features collide and common English trigrams (ter, ing) are shared
 * by unrelated words, so at 384 dimensions an unrelated question still reaches 0.12–0.33 cosine with
 * some section, while related questions score 0.25–0.75. Chosen by sweeping 0.2–0.35 with
 * `npm run eval:recall -- --floor X` (docs/performance.md): 0.3 keeps every related question the
 * vectors help with; 0.35 starts to lose some.
 */
const OFFLINE_SIMILARITY_FLOOR = 0.3;
/**
 * Its say against word BM25 in English-style queries. The hashed features are the same words and
 * word pieces the keyword side already matches, so on LoCoMo every weight above zero ranked worse
 * (0.1: −0.4 R@10, 0.3: −1.1, 1: −5.9; docs/performance.md). It stays a fallback: a hit only the
 * vectors find (a misspelt name) still comes back, after the keyword hits.
 */
const OFFLINE_FUSION_WEIGHT = 0.02;

/** Adds the features of one text to `bag` (feature → raw weight). */
function features(text: string, bag = new Map<string, number>()): Map<string, number> {
	const add = (feature: string, weight: number) => bag.set(feature, (bag.get(feature) ?? 0) + weight);
	for (const token of tokens(normalise(text))) {
		const runs = scriptRuns(token);
		const mixed = runs.length > 1;
		for (const { text: run, script } of runs) {
			const chars = [...run];
			if (script === 'latin') {
				if (ENGLISH_STOP_WORDS.has(run) || chars.length < 2) continue;
				add(`w:${stem(run)}`, WORD_WEIGHT);
				const padded = [...`^${run}$`];
				for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3).join('')}`, NGRAM_WEIGHT);
			} else if (script === 'han') {
				if (chars.length === 1) add(`u:${run}`, SINGLE_KANJI_WEIGHT);
				else if (chars.length <= MAX_WORD_RUN) add(`w:${run}`, WORD_WEIGHT);
				for (let i = 0; i + 2 <= chars.length; i++) add(`b:${chars[i]}${chars[i + 1]}`, KANJI_BIGRAM_WEIGHT);
			} else if (script === 'katakana') {
				if (chars.length >= 2 && chars.length <= MAX_WORD_RUN) add(`w:${run}`, WORD_WEIGHT);
				for (let i = 0; i + 2 <= chars.length; i++) add(`b:${chars[i]}${chars[i + 1]}`, NGRAM_WEIGHT);
			} else {
				// Hiragana inside a mixed token is grammar (particles, okurigana); alone it may be a word.
				if (mixed || chars.length < 2 || JAPANESE_STOP_WORDS.has(run)) continue;
				for (let i = 0; i + 2 <= chars.length; i++) add(`b:${chars[i]}${chars[i + 1]}`, NGRAM_WEIGHT);
			}
		}
	}
	return bag;
}

/** FNV-1a over UTF-16 code units; `seed` gives an independent second hash for the sign. */
function fnv1a(s: string, seed: number): number {
	let h = seed;
	for (let i = 0; i < s.length; i++) {
		h ^= s.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return h >>> 0;
}
const INDEX_SEED = 0x811c9dc5;
const SIGN_SEED = 0x9747b28c;

/** Hashes a feature bag into a signed, L2-normalised vector; all zeros when there are no features. */
function hashFeatures(bag: Map<string, number>, dimensions: number): Float32Array {
	const vector = new Float32Array(dimensions);
	for (const [feature, count] of bag) {
		// Sub-linear term frequency: a name said ten times is not ten times as relevant.
		const weight = count > 1 ? 1 + Math.log(count) : count;
		const index = fnv1a(feature, INDEX_SEED) % dimensions;
		const sign = fnv1a(feature, SIGN_SEED) & 1 ? 1 : -1;
		vector[index] = (vector[index] ?? 0) + sign * weight;
	}
	let norm = 0;
	for (const x of vector) norm += x * x;
	if (norm > 0) {
		const inv = 1 / Math.sqrt(norm);
		for (let i = 0; i < dimensions; i++) vector[i] = (vector[i] ?? 0) * inv;
	}
	return vector;
}

export class OfflineEmbedder implements Embedder {
	readonly id = OFFLINE_EMBEDDER_ID;
	readonly similarityFloor = OFFLINE_SIMILARITY_FLOOR;
	readonly fusionWeight = OFFLINE_FUSION_WEIGHT;

	constructor(readonly dimensions: number) {
		if (!Number.isInteger(dimensions) || dimensions < 1) throw new RangeError('dimensions must be a positive integer');
	}

	async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
		signal?.throwIfAborted();
		return texts.map((text) => hashFeatures(features(text), this.dimensions));
	}
}
