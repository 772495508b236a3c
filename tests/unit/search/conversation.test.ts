/**
 * Recall over a play log: the word index's neighbour context (the words_context migration), answers that follow
 * logged questions, and word BM25 leading English-style queries. Records are written through the
 * records API, as the GM's turns write them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createClient } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { testEnv, type TestEnv } from '../../helpers/env';
import type { SessionDb, SessionTx } from '../../../src/lib/server/db';
import { migrate } from '../../../src/lib/server/db/migrate';
import { sessionMigrations } from '../../../src/lib/server/db/migrations.generated';
import { documents, journal, log } from '../../../src/lib/server/records';
import { embedPending, OfflineEmbedder, recall } from '../../../src/lib/server/search';

let env: TestEnv;
beforeEach(async () => {
	env = await testEnv();
});
afterEach(async () => {
	await env.cleanup();
});

/** Small talk that shares no word with the questions below. */
const FILLER = [
	'Good morning to you too.',
	'Lovely weather for it.',
	'I saw a heron by the canal today.',
	'The bakery was closed again.',
	'Ha, that sounds like you.'
];

async function playLog(s: SessionDb, lines: readonly { ref: string; body: string }[]) {
	await s.write(async (tx) => {
		for (const [i, line] of lines.entries()) await log.append(tx, { role: i % 2 === 0 ? 'player' : 'gm', body: line.body, ref: line.ref });
	});
}

const refs = async (exec: SessionDb['db'] | SessionTx, q: string, k = 5) => (await recall(exec, q, { k })).map((h) => h.ref);

describe('recall over a play log', () => {
	it('finds a line through the lines around it (context column)', async () => {
		await env.app.sessions.use(await env.sessionId(), async (s) => {
			const lines = [
				...FILLER.map((body, i) => ({ ref: `a${i}`, body })),
				{ ref: 'lead', body: 'Mira talked about her sailing lessons on the estuary.' },
				{ ref: 'target', body: 'She capsized twice and laughed about it.' },
				...FILLER.map((body, i) => ({ ref: `b${i}`, body }))
			];
			await playLog(s, lines);
			// "capsized" alone would find it; "sailing estuary" is only in the line before it.
			const hits = await refs(s.db, 'Mira sailing estuary', 3);
			expect(hits).toContain('lead');
			expect(hits).toContain('target');
		});
	});

	it('finds a line through the lines after it once the context queue is drained (after the commit)', async () => {
		await env.app.sessions.use(await env.sessionId(), async (s) => {
			await playLog(s, [
				...FILLER.map((body, i) => ({ ref: `a${i}`, body })),
				{ ref: 'target', body: 'And then we lost the mast.' },
				{ ref: 'follow', body: 'Mira talked about her sailing lessons on the estuary.' },
				...FILLER.map((body, i) => ({ ref: `b${i}`, body }))
			]);
			// Written, not yet refreshed: the line before `follow` does not know it yet.
			expect(await refs(s.db, 'Mira sailing estuary', 3)).not.toContain('target');
			expect(await s.db.all(sql`SELECT count(*) AS n FROM context_queue`)).not.toEqual([{ n: 0 }]);
			await embedPending(s, new OfflineEmbedder(64));
			expect(await s.db.all(sql`SELECT count(*) AS n FROM context_queue`)).toEqual([{ n: 0 }]);
			expect(await refs(s.db, 'Mira sailing estuary', 3)).toContain('target');
		});
	});

	it('gives a logged question’s answer the question’s match', async () => {
		await env.app.sessions.use(await env.sessionId(), async (s) => {
			await playLog(s, [
				...FILLER.map((body, i) => ({ ref: `a${i}`, body })),
				{ ref: 'question', body: 'How often do you train with your family?' },
				{ ref: 'answer', body: 'Three times a week, it keeps us on track.' },
				...FILLER.map((body, i) => ({ ref: `b${i}`, body })),
				// Neighbours of the question that share its words with context only.
				{ ref: 'other', body: 'My family trains at the old gym near the harbour.' },
				...FILLER.map((body, i) => ({ ref: `c${i}`, body }))
			]);
			const hits = await refs(s.db, 'How often does Sam train with the family', 3);
			expect(hits.slice(0, 2)).toEqual(expect.arrayContaining(['question', 'answer']));
		});
	});

	it('does not raise the line after a statement: only questions are answered', async () => {
		await env.app.sessions.use(await env.sessionId(), async (s) => {
			await playLog(s, [
				...FILLER.map((body, i) => ({ ref: `a${i}`, body })),
				{ ref: 'statement', body: 'I train with my family every weekend.' },
				{ ref: 'after', body: 'Three times a week, it keeps us on track.' },
				...FILLER.map((body, i) => ({ ref: `b${i}`, body })),
				{ ref: 'other', body: 'My family trains at the old gym near the harbour.' },
				...FILLER.map((body, i) => ({ ref: `c${i}`, body }))
			]);
			const hits = await refs(s.db, 'How often does Sam train with the family', 3);
			expect(hits.slice(0, 2)).toEqual(expect.arrayContaining(['statement', 'other']));
		});
	});

	it('gives documents no context: a neighbouring section does not leak into the next', async () => {
		await env.app.sessions.use(await env.sessionId(), async (s) => {
			await s.write(async (tx) => {
				await documents.create(tx, {
					title: 'Places',
					body: '# Harbour\nThe harbourmaster counts every barrel.\n# Mill\nThe miller grinds rye.\n# Chapel\nCandles and prayers.',
					ref: 'places'
				});
			});
			const hits = await recall(s.db, 'barrel', { k: 5 });
			expect(hits.map((h) => h.path)).toEqual(['Places › Harbour']);
		});
	});

	it('lets words lead an English query: a whole word beats words that merely contain it', async () => {
		await env.app.sessions.use(await env.sessionId(), async (s) => {
			await s.write(async (tx) => {
				for (const body of [
					'During the bring-your-own supper they string lanterns.',
					'Bringing spring ringlets during the spring fair.',
					'The ring is in the well.'
				])
					await journal.append(tx, { body, ref: body.slice(0, 12) });
			});
			const hits = await recall(s.db, 'the ring', { k: 3 });
			expect(hits[0]?.ref).toBe('The ring is ');
		});
	});
});

describe('recall: English-style queries and the substring index', () => {
	it('still finds a partial name the word index does not know', async () => {
		await env.app.sessions.use(await env.sessionId(), async (s) => {
			await s.write(async (tx) => {
				await journal.append(tx, { body: 'Quillon carries the blue lantern to the mill.', ref: 'quillon' });
				await journal.append(tx, { body: 'The miller counts sacks of rye.', ref: 'miller' });
			});
			expect((await recall(s.db, 'Quill', { k: 3 })).map((h) => h.ref)).toEqual(['quillon']);
		});
	});
});

describe('the words-context migration on an existing session database', () => {
	it('re-indexes the words with their context', async () => {
		const file = `${env.dir}/old-session.db`;
		const client = createClient({ url: `file:${file}` });
		// A session written by the previous version: every migration before this one.
		const at = sessionMigrations.findIndex((m) => m.tag.endsWith('_words_context'));
		expect(at).toBeGreaterThan(0);
		await migrate(client, sessionMigrations.slice(0, at));
		const db = drizzle(client);
		const lines = ['Mira talked about her sailing lessons on the estuary.', 'She capsized twice and laughed about it.', ...FILLER];
		for (const [i, body] of lines.entries())
			await db.run(
				sql`INSERT INTO sections (kind, record_id, ord, path, body, gm_only, ref, content_hash)
					VALUES ('log', ${i + 1}, 0, ${`Log › gm #${i + 1}`}, ${body}, 0, ${`l${i}`}, ${`h${i}`})`
			);
		expect(await migrate(client, sessionMigrations)).toContain(sessionMigrations[at]?.tag);
		const rows = await db.all<{ id: number }>(
			sql`SELECT rowid AS id FROM sections_words WHERE sections_words MATCH 'estuary' ORDER BY rowid`
		);
		// The line itself, and the lines whose context holds it (the one after it, and the one after that).
		expect(rows.map((r) => r.id)).toEqual([1, 2, 3]);
		client.close();
	});
});
