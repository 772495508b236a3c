/** recall: the GM looks things up instead of guessing (design brief: "every record is searchable"). */
import * as v from 'valibot';
import { MAX_NAME_CHARS, RECORD_KINDS, witnesses } from '../../records';
import { EmbeddingError, recall as searchRecall, withQueryEmbedded, type RecallHit } from '../../search';
import { defineTool } from '../define';
import type { ToolContext } from '../context';
import { int, quote, text } from './shared';

const MAX_QUERY_CHARS = 500;
/** The GM's context is precious: a handful of sections answers a question; more is reading, not recall. */
const MAX_GM_RECALL_K = 20;
const DEFAULT_GM_RECALL_K = 8;

const schema = v.object({
	query: text(MAX_QUERY_CHARS, "In the records' language"),
	k: v.optional(int(1, MAX_GM_RECALL_K)),
	kinds: v.optional(v.pipe(v.array(v.picklist(RECORD_KINDS)), v.minLength(1))),
	known_by: v.optional(text(MAX_NAME_CHARS))
});

/** known_by keeps a fraction of what matches: search this many times deeper before keeping `k`. */
const KNOWN_BY_DEPTH = 4;

interface RecallOutputHit {
	kind: RecallHit['kind'];
	recordId: number;
	path: string;
	snippet: string;
	ref?: string;
}

export const recallTool = defineTool({
	name: 'recall',
	description: 'Search every record and the past conversation.',
	schema,
	async handler(args, ctx: ToolContext) {
		const k = args.k ?? DEFAULT_GM_RECALL_K;
		const options = { k: args.known_by === undefined ? k : k * KNOWN_BY_DEPTH, includeGmOnly: true, kinds: args.kinds };
		let note: string | undefined;
		let hits: RecallHit[];
		try {
			// Embed before entering the turn's speculative transaction, so a slow embedding service never holds the write lock.
			const embedder = await withQueryEmbedded(ctx.embedder, args.query);
			hits = await ctx.read((exec) => searchRecall(exec, args.query, { ...options, embedder }));
		} catch (err) {
			if (!(err instanceof EmbeddingError)) throw err;
			// The meaning side is a network service; when it fails the keyword side still answers.
			note = 'meaning search is unavailable right now; these are keyword matches only';
			hits = await ctx.read((exec) => searchRecall(exec, args.query, options));
		}
		if (args.known_by !== undefined) hits = await knownOnly(ctx, args.known_by, hits, k);
		if (hits.length === 0) {
			if (args.known_by !== undefined)
				return `${args.known_by} witnessed or was told nothing that matches ${quote(args.query)}: they do not know it.`;
			return `No records match ${quote(args.query)}.${note ? ` (${note})` : ''} Try other \
words (a name, a shorter phrase), or treat it as unrecorded; do not invent it.`;
		}
		const out: RecallOutputHit[] = hits.map((h) => ({
			kind: h.kind,
			recordId: h.recordId,
			path: h.path,
			snippet: h.snippet,
			...(h.ref ? { ref: h.ref } : {})
		}));
		return note ? { hits: out, note } : { hits: out };
	}
});

/** The hits `name` witnessed or was told (journal, notes, truths, play-log lines with them as witness), the first `k`. */
async function knownOnly(ctx: ToolContext, name: string, hits: readonly RecallHit[], k: number): Promise<RecallHit[]> {
	const known = await ctx.read((exec) => witnesses.knownTo(exec, name, hits));
	return hits.filter((h) => known.has(`${h.kind}:${h.recordId}`)).slice(0, k);
}
