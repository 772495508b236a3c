/**
 * `records import` and `records search`: bulk-load a session's records from JSON lines and query them
 * with the same recall the GM uses. Maintainer tools: they see GM-only records unless told not to.
 */
import { readFile } from 'node:fs/promises';
import * as v from 'valibot';
import { findPlaySession } from '../../sessions';
import { importRecord, ImportLineSchema, type ImportLine } from '../../records';
import { embedPending, recall, type RecallHit } from '../../search';
import type { App } from '../../app';
import { CliError, UsageError } from '../errors';
import { progressBar } from '../progress';
import type { Command, CommandArgs } from '../command';

/** Sections embedded per batch while importing. */
const IMPORT_EMBED_BATCH = 64;

async function sessionOf(app: App, args: CommandArgs): Promise<string> {
	const id = args.requiredString('session');
	try {
		return (await findPlaySession(app, id)).id;
	} catch {
		throw new CliError(`no play session with id "${id}" (list them with  kantera sessions list)`);
	}
}

/** Reads a JSON-lines file, validating every line first: one bad line imports nothing. */
async function readLines<T>(file: string, schema: v.GenericSchema<unknown, T>): Promise<T[]> {
	let text: string;
	try {
		text = await readFile(file, 'utf8');
	} catch (err) {
		throw new CliError(`cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
	}
	const out: T[] = [];
	const lines = text.split(/\r?\n/);
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i]?.trim();
		if (!line) continue;
		let json: unknown;
		try {
			json = JSON.parse(line);
		} catch {
			throw new CliError(`${file}:${i + 1}: not valid JSON; nothing was imported`);
		}
		const parsed = v.safeParse(schema, json);
		if (!parsed.success) throw new CliError(`${file}:${i + 1}: ${parsed.issues.map((x) => x.message).join('; ')}; nothing was imported`);
		out.push(parsed.output);
	}
	return out;
}

const importCommand: Command = {
	name: ['records', 'import'],
	summary: 'import records from a JSON-lines file, then embed them',
	usage: '--session S --file F.jsonl',
	details: [
		'--session S         the play session id',
		'--file F.jsonl      one JSON object a line:',
		'                    {"kind": "state"|"journal"|"memory"|"document"|"summary"|"story"|"log",',
		'                     "title"?, "body", "ref"?}  (ref comes back in search results)',
		'All lines are checked first and written in one transaction: a bad line imports nothing.'
	],
	options: { session: { type: 'string' }, file: { type: 'string' } },
	async run(ctx, args) {
		const app = await ctx.app();
		const sessionId = await sessionOf(app, args);
		const lines: ImportLine[] = await readLines(args.requiredString('file'), ImportLineSchema);
		await app.sessions.use(sessionId, async (s) => {
			try {
				await s.write(async (tx) => {
					for (let i = 0; i < lines.length; i++) {
						try {
							await importRecord(tx, lines[i]);
						} catch (err) {
							throw new CliError(`record ${i + 1}: ${err instanceof Error ? err.message : String(err)}; nothing was imported`);
						}
					}
				});
			} catch (err) {
				if (err instanceof CliError) throw err;
				throw new CliError(`import failed, nothing was imported: ${err instanceof Error ? err.message : String(err)}`);
			}
			ctx.note(`Imported ${lines.length} records; embedding…`);
			const bar = progressBar(ctx.io.stderr, 'embedding');
			let embedded = 0;
			for (;;) {
				const r = await embedPending(s, app.embedder, { maxBatches: 1, batchSize: IMPORT_EMBED_BATCH });
				embedded += r.embedded;
				bar.update(embedded, embedded + r.remaining);
				if (r.remaining === 0 || r.embedded === 0) break;
			}
			bar.end();
			ctx.out(`Imported ${lines.length} records into session ${sessionId} and embedded ${embedded} sections with ${app.embedder.id}.`);
		});
	}
};

const QueryLineSchema = v.object({
	id: v.union([v.string(), v.number()], 'id must be a string or a number'),
	query: v.pipe(v.string('query must be a string'), v.minLength(1, 'query must not be empty'))
});

const K_MAX = 100;

function hitJson(h: RecallHit) {
	return { ref: h.ref, kind: h.kind, recordId: h.recordId, path: h.path, score: h.score, snippet: h.snippet };
}

const searchCommand: Command = {
	name: ['records', 'search'],
	summary: 'search a session’s records with hybrid recall',
	usage: '--session S (--query Q | --queries Q.jsonl) [--k N] [--json] [--no-cutoff] [--player]',
	details: [
		'--query Q           one query',
		'--queries Q.jsonl   one {"id", "query"} a line; writes one {"id", "results"} JSON line per query',
		'--k N               results per query (default 8, at most 100)',
		'--json              JSON output for a single query',
		'--no-cutoff         keep weak meaning-side matches (no similarity floor or gap cut), for ranking studies',
		'--player            only what the player may see (leave out the story DB and GM-only documents)'
	],
	options: {
		session: { type: 'string' },
		query: { type: 'string' },
		queries: { type: 'string' },
		k: { type: 'string' },
		json: { type: 'boolean' },
		'no-cutoff': { type: 'boolean' },
		player: { type: 'boolean' }
	},
	async run(ctx, args) {
		const kText = args.string('k');
		const k = kText === undefined ? 8 : Number(kText);
		if (!Number.isInteger(k) || k < 1 || k > K_MAX) throw new UsageError(`--k must be a whole number from 1 to ${K_MAX}`, 'records search');
		const query = args.string('query');
		const file = args.string('queries');
		if ((query === undefined) === (file === undefined)) throw new UsageError('give exactly one of --query or --queries', 'records search');
		const app = await ctx.app();
		const sessionId = await sessionOf(app, args);
		const options = { k, cutoff: !args.flag('no-cutoff'), includeGmOnly: !args.flag('player'), embedder: app.embedder };
		await app.sessions.use(sessionId, async (s) => {
			if (file !== undefined) {
				const queries = await readLines(file, QueryLineSchema);
				for (const q of queries) ctx.out(JSON.stringify({ id: q.id, results: (await recall(s.db, q.query, options)).map(hitJson) }));
				return;
			}
			const hits = await recall(s.db, query ?? '', options);
			if (args.flag('json')) {
				ctx.out(JSON.stringify(hits.map(hitJson)));
				return;
			}
			if (hits.length === 0) ctx.note('No matching records.');
			for (const h of hits)
				ctx.out(
					`${h.score.toFixed(4)}\t${h.kind}#${h.recordId}${h.ref ? ` (${h.ref})` : ''}\t${h.path}\t${h.snippet.replace(/\s+/g, ' ')}`
				);
		});
	}
};

export const recordsCommands: readonly Command[] = [importCommand, searchCommand];
