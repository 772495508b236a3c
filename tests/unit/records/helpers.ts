/** Shared fixtures for the records tests: one app per file, a fresh session database per test. */
import { afterAll, beforeAll } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { testEnv, type TestEnv } from '../../helpers/env';
import { sessionSchema, type SessionDb } from '../../../src/lib/server/db';
import type { RecordKind } from '../../../src/lib/server/records';

export function useSessions(): (fn: (s: SessionDb) => Promise<void>) => Promise<void> {
	let env: TestEnv | undefined;
	beforeAll(async () => {
		env = await testEnv();
	});
	afterAll(async () => {
		await env?.cleanup();
	});
	return async (fn) => {
		if (!env) throw new Error('test env not ready');
		const e = env;
		await e.app.sessions.use(await e.sessionId(), fn);
	};
}

export async function sectionRows(s: SessionDb, kind?: RecordKind) {
	const t = sessionSchema.sections;
	return s.db
		.select()
		.from(t)
		.where(kind ? eq(t.kind, kind) : undefined)
		.orderBy(asc(t.kind), asc(t.recordId), asc(t.ord));
}

/** Section ids a plain trigram FTS query finds (the phrase is quoted, as the search layer does). */
export async function trigram(s: SessionDb, phrase: string): Promise<number[]> {
	const rs = await s.client.execute({
		sql: 'SELECT rowid FROM sections_trigram WHERE sections_trigram MATCH ? ORDER BY rowid',
		args: [`"${phrase}"`]
	});
	return rs.rows.map((r) => Number(r[0]));
}

export async function words(s: SessionDb, query: string): Promise<number[]> {
	const rs = await s.client.execute({ sql: 'SELECT rowid FROM sections_words WHERE sections_words MATCH ? ORDER BY rowid', args: [query] });
	return rs.rows.map((r) => Number(r[0]));
}

export async function queued(s: SessionDb): Promise<number[]> {
	const rows = await s.db.select().from(sessionSchema.embedQueue).orderBy(asc(sessionSchema.embedQueue.sectionId));
	return rows.map((r) => r.sectionId);
}

export async function clearQueue(s: SessionDb): Promise<void> {
	await s.write((tx) => tx.delete(sessionSchema.embedQueue));
}

/** Throws unless both FTS indexes agree exactly with the `sections` table. */
export async function checkFtsIntegrity(s: SessionDb): Promise<void> {
	await s.client.execute("INSERT INTO sections_trigram(sections_trigram) VALUES('integrity-check')");
	await s.client.execute("INSERT INTO sections_words(sections_words) VALUES('integrity-check')");
}

const TABLES = ['state', 'journal', 'memory_notes', 'documents', 'summaries', 'story_entries', 'log_messages', 'sections', 'embed_queue'];

/** Every row of every record table, the sections and the queue: compare before/after a failed write. */
export async function dump(s: SessionDb): Promise<Record<string, unknown[]>> {
	const out: Record<string, unknown[]> = {};
	for (const table of TABLES) out[table] = (await s.client.execute(`SELECT * FROM ${table} ORDER BY rowid`)).rows.map((r) => ({ ...r }));
	return out;
}

/** Runs `fn` and returns the error it throws (failing the test when it doesn't). */
export async function caught(fn: () => Promise<unknown>): Promise<unknown> {
	try {
		await fn();
	} catch (err) {
		return err;
	}
	throw new Error('expected the call to throw');
}
