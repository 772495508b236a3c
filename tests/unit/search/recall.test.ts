import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testEnv, type TestEnv } from '../../helpers/env';
import type { SessionDb } from '../../../src/lib/server/db';
import { embedPending, OfflineEmbedder, recall, type RecallHit } from '../../../src/lib/server/search';
import { CAMPAIGN } from './campaign';
import { insertSections } from './factory';

const embedder = new OfflineEmbedder(384);
const refs = (hits: RecallHit[]) => hits.map((h) => h.ref);

let env: TestEnv;
beforeEach(async () => {
	env = await testEnv();
});
afterEach(async () => {
	await env.cleanup();
});

async function withCampaign<T>(fn: (s: SessionDb) => Promise<T>, embed = true): Promise<T> {
	return env.app.sessions.use(await env.sessionId(), async (s) => {
		await s.write((tx) => insertSections(tx, CAMPAIGN));
		if (embed) await embedPending(s, embedder);
		return fn(s);
	});
}

describe('recall: Japanese', () => {
	it('finds a two-character name, first by its heading', async () => {
		await withCampaign(async (s) => {
			const hits = await recall(s.db, '北門', { embedder });
			expect(refs(hits)[0]).toBe('north-gate');
			expect(refs(hits)).toContain('bram');
		});
	});

	it('finds a single kanji at the end of a heading and inside a body', async () => {
		await withCampaign(async (s) => {
			expect(refs(await recall(s.db, '剣', { embedder }))).toContain('sword');
			expect(refs(await recall(s.db, '塔', { embedder }))).toContain('grey-tower');
		});
	});

	it('finds names by substrings, and the words of a sentence without spaces', async () => {
		await withCampaign(async (s) => {
			expect(refs(await recall(s.db, 'ブラム', { embedder }))[0]).toBe('bram');
			expect(refs(await recall(s.db, 'ラム', { embedder }))).toContain('bram');
			expect(refs(await recall(s.db, '月光', { embedder }))[0]).toBe('moon-herb');
			// 北門 / 衛兵 / 名前: no section has the whole phrase.
			expect(refs(await recall(s.db, '北門の衛兵の名前は？', { embedder })).slice(0, 2)).toContain('bram');
		});
	});

	it('returns heading paths and a snippet around the match', async () => {
		await withCampaign(async (s) => {
			const [hit] = await recall(s.db, '星見の間', { embedder });
			expect(hit).toMatchObject({ ref: 'grey-tower', kind: 'document', path: '地理 › 灰色の塔' });
			expect(hit?.snippet).toContain('星見の間');
			expect(hit?.score).toBeGreaterThan(0);
		});
	});
});

describe('recall: English', () => {
	it('matches words with inflections and ranks the right section first', async () => {
		await withCampaign(async (s) => {
			expect(refs(await recall(s.db, 'who forged this sword?', { embedder }))[0]).toBe('forge');
			expect(refs(await recall(s.db, 'ships running aground near the cliffs', { embedder }))[0]).toBe('lighthouse');
			expect(refs(await recall(s.db, 'rumours of smuggling', { embedder }))[0]).toBe('tavern');
		});
	});
});

describe('recall: visibility and filters', () => {
	it('leaves GM-only sections out unless asked', async () => {
		await withCampaign(async (s) => {
			expect(refs(await recall(s.db, 'Edrin smugglers', { embedder }))).not.toContain('secret');
			expect(refs(await recall(s.db, 'ブラム', { embedder }))).not.toContain('secret-ja');
			expect(refs(await recall(s.db, 'Edrin smugglers', { embedder, includeGmOnly: true }))).toContain('secret');
			expect(refs(await recall(s.db, 'ブラム', { embedder, includeGmOnly: true }))).toContain('secret-ja');
		});
	});

	it('filters by kind and bounds the result count', async () => {
		await withCampaign(async (s) => {
			const hits = await recall(s.db, 'ブラム', { embedder, kinds: ['memory'] });
			expect(hits.map((h) => h.kind)).toEqual(['memory']);
			expect(await recall(s.db, 'ブラム', { embedder, kinds: [] })).toEqual([]);
			expect((await recall(s.db, 'the', { embedder, k: 2, cutoff: false })).length).toBeLessThanOrEqual(2);
		});
	});
});

describe('recall: unrelated questions', () => {
	it('returns nothing for a question the campaign knows nothing about', async () => {
		await withCampaign(async (s) => {
			expect(await recall(s.db, 'what is the airspeed of a swallow', { embedder })).toEqual([]);
			expect(await recall(s.db, 'quarterly tax returns', { embedder })).toEqual([]);
		});
	});

	it('without the cutoff the meaning side still ranks something (ranking studies)', async () => {
		await withCampaign(async (s) => {
			expect((await recall(s.db, 'what is the airspeed of a swallow', { embedder, cutoff: false })).length).toBeGreaterThan(0);
		});
	});
});

describe('recall: FTS-hostile input', () => {
	it.each([
		'"',
		'"北門',
		'AND',
		'OR NOT',
		'smug*',
		'(forge',
		'NEAR(a b)',
		'path:forge',
		'^lamp',
		"O'Brien",
		'',
		'   ',
		'!!!',
		'-',
		'""""',
		'*'
	])('does not throw on %j', async (q) => {
		await withCampaign(async (s) => {
			await expect(recall(s.db, q, { embedder })).resolves.toBeInstanceOf(Array);
		});
	});
});

describe('recall: transactions and embedding state', () => {
	it('sees the uncommitted sections of the open transaction, including short names', async () => {
		await withCampaign(async (s) => {
			await s.write(async (tx) => {
				await insertSections(tx, [{ ref: 'new-npc', kind: 'memory', path: 'NPC › 鈴蘭', body: '鈴蘭は薬師の娘。北の森で薬草を摘む。' }]);
				expect(refs(await recall(tx, '鈴蘭', { embedder }))).toContain('new-npc');
				expect(refs(await recall(tx, '薬師の娘', { embedder }))).toContain('new-npc');
				// Other connections see only what is committed.
				expect(refs(await recall(s.db, '鈴蘭', { embedder }))).not.toContain('new-npc');
			});
			expect(refs(await recall(s.db, '鈴蘭', { embedder }))).toContain('new-npc');
		});
	});

	it('finds sections by keyword before they are embedded', async () => {
		await withCampaign(async (s) => {
			const queued = await s.db.all(sql`SELECT count(*) AS n FROM embed_queue`);
			expect(queued).toEqual([{ n: CAMPAIGN.length }]);
			expect(refs(await recall(s.db, 'ブラム', { embedder }))[0]).toBe('bram');
			expect(refs(await recall(s.db, 'lighthouse keeper', { embedder }))[0]).toBe('lighthouse');
		}, false);
	});
});
