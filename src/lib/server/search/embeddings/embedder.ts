/**
 * One interface for every embedding model. Records and recall only ever see this; which model sits
 * behind it is configuration.
 */
export interface Embedder {
	/** Model id; recorded per session database so a model change is noticed and triggers a re-embed. */
	readonly id: string;
	/** Vector length; fixed per session database (the vector column is F32_BLOB(dimensions)). */
	readonly dimensions: number;
	/**
	 * Cosine similarity under which a meaning-side hit counts as unrelated. It belongs to the model:
	 * a hashed bag of n-grams and a neural model put unrelated texts at very different similarities.
	 * When absent recall uses DEFAULT_SIMILARITY_FLOOR.
	 */
	readonly similarityFloor?: number;
	/**
	 * How much the meaning list counts against word BM25 (weight 1) when recall fuses an English-style
	 * query by score. It belongs to the model too: a hashed bag of n-grams mostly repeats what the
	 * words found, a neural model knows synonyms and paraphrase. When absent recall uses
	 * DEFAULT_MEANING_WEIGHT (an equal say).
	 */
	readonly fusionWeight?: number;
	/** One vector per text, in order. Vectors need not be normalised (cosine distance is used). */
	embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

/** True when every component is zero: such a vector has no direction and cannot be compared. */
export function isZeroVector(vector: Float32Array): boolean {
	for (const x of vector) if (x !== 0) return false;
	return true;
}
