/**
 * The same-run lexical anchors of the LoCoMo protocol, on a private in-memory SQLite (libSQL) database,
 * written from the protocol's description and nothing of Kantera's recall:
 * - plain: FTS5 `porter unicode61` over the record bodies, the question's words OR-ed, ORDER BY bm25;
 * - strong: the same table with a second column holding the two turns before and the two after each
 *   turn, `bm25(t, 1.0, 1.0)`, English stop words dropped from the question.
 */
import { createClient, type Client } from '@libsql/client';
import { ENGLISH_STOP_WORDS } from '../../src/lib/server/search/text';

/** Turns on each side that the strong anchor indexes as context. */
const CONTEXT_TURNS = 2;

export type AnchorName = 'plain' | 'strong';

export class LexicalAnchors {
	private constructor(
		private readonly db: Client,
		private readonly refs: readonly string[]
	) {}

	static async build(bodies: readonly { ref: string; body: string }[]): Promise<LexicalAnchors> {
		const db = createClient({ url: ':memory:' });
		await db.batch(
			[
				`CREATE VIRTUAL TABLE plain USING fts5(body, tokenize='porter unicode61')`,
				`CREATE VIRTUAL TABLE strong USING fts5(body, context, tokenize='porter unicode61')`
			],
			'write'
		);
		const statements = bodies.flatMap((t, i) => {
			const context = [...bodies.slice(Math.max(0, i - CONTEXT_TURNS), i), ...bodies.slice(i + 1, i + 1 + CONTEXT_TURNS)]
				.map((n) => n.body)
				.join(' ');
			return [
				{ sql: 'INSERT INTO plain (rowid, body) VALUES (?, ?)', args: [i + 1, t.body] },
				{ sql: 'INSERT INTO strong (rowid, body, context) VALUES (?, ?, ?)', args: [i + 1, t.body, context] }
			];
		});
		await db.batch(statements, 'write');
		return new LexicalAnchors(
			db,
			bodies.map((b) => b.ref)
		);
	}

	async search(anchor: AnchorName, question: string, k: number): Promise<string[]> {
		const words = question.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
		const kept = anchor === 'strong' ? words.filter((w) => !ENGLISH_STOP_WORDS.has(w)) : words;
		if (kept.length === 0) return [];
		const match = kept.map((w) => `"${w.replaceAll('"', '""')}"`).join(' OR ');
		const order = anchor === 'strong' ? 'bm25(strong, 1.0, 1.0)' : 'bm25(plain)';
		const rows = await this.db.execute({
			sql: `SELECT rowid AS id FROM ${anchor} WHERE ${anchor} MATCH ? ORDER BY ${order} LIMIT ?`,
			args: [match, k]
		});
		return rows.rows.map((r) => this.refs[Number(r.id) - 1] ?? '');
	}

	close(): void {
		this.db.close();
	}
}
