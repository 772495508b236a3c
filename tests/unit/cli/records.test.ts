/** `kantera records import` / `records search` end to end against real session databases. */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../../helpers/env';
import * as v from 'valibot';
import { kantera, kanteraInProcess } from '../../helpers/cli';

/** What `records search --json` prints: one array of hits. */
const Hits = v.array(v.looseObject({ ref: v.nullable(v.string()), snippet: v.string() }));
/** A line of a batch search's output. */
const BatchLine = v.object({ id: v.union([v.string(), v.number()]), results: v.array(v.looseObject({ ref: v.nullable(v.string()) })) });
const hitsOf = (stdout: string) => v.parse(Hits, JSON.parse(stdout));

const lastWord = (text: string) => text.trim().split(/\s+/).at(-1) ?? '';

const LINES = [
	{
		kind: 'document',
		title: 'World',
		body: '# Geography\n## North\n### North Gate\nThe 北門 is guarded day and night by ブラム, a veteran with a scarred cheek.\n## South\nFishing villages.',
		ref: 'doc-world'
	},
	{ kind: 'journal', body: 'Day 3: the party bought a brass lantern in the market.', ref: 'j-lantern' },
	{ kind: 'memory', title: 'Bram', body: 'Bram owes the party a favour.', ref: 'm-bram' },
	{ kind: 'story', title: 'traitor', body: 'The captain of the guard is the traitor.', ref: 's-traitor' },
	{ kind: 'state', body: '{"location": "North Gate", "hp": 12}', ref: 'state' }
];

describe('kantera records', () => {
	const tmp = tempDir('kantera-cli-records-');
	const dir = tmp.dir;
	const file = (name: string, lines: unknown[]) => {
		const p = path.join(dir, name);
		writeFileSync(p, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
		return p;
	};
	let session = '';
	beforeAll(async () => {
		expect((await kanteraInProcess(dir, ['user', 'create', '--name', 'keeper', '--password-stdin'], 'correct horse battery')).code).toBe(0);
		const created = await kanteraInProcess(dir, ['sessions', 'create', '--title', 'Import test']);
		session = lastWord(created.stdout);
	});
	afterAll(() => tmp.remove());

	it('imports a JSONL file, embeds it, and finds records by short Japanese names and English words', async () => {
		const imported = await kantera(dir, ['records', 'import', '--session', session, '--file', file('records.jsonl', LINES)]);
		expect(imported.stderr).not.toMatch(/error/i);
		expect(imported.code).toBe(0);
		expect(imported.stdout).toMatch(/Imported 5 records .* embedded \d+ sections/);

		const gate = await kanteraInProcess(dir, ['records', 'search', '--session', session, '--query', '北門', '--json']);
		expect(gate.code).toBe(0);
		const hits: { ref: string; path: string; kind: string }[] = JSON.parse(gate.stdout);
		expect(hits[0]).toMatchObject({ ref: 'doc-world', kind: 'document', path: 'World › Geography › North › North Gate' });

		const lantern = await kanteraInProcess(dir, [
			'records',
			'search',
			'--session',
			session,
			'--query',
			'lanterns bought at the market',
			'--json'
		]);
		expect(hitsOf(lantern.stdout)[0]).toMatchObject({ ref: 'j-lantern' });
	});

	it('leaves GM-only records out with --player, and answers a batch of queries as JSON lines', async () => {
		const gm = await kanteraInProcess(dir, ['records', 'search', '--session', session, '--query', 'traitor', '--json']);
		expect(hitsOf(gm.stdout).map((h) => h.ref)).toContain('s-traitor');
		const player = await kanteraInProcess(dir, ['records', 'search', '--session', session, '--query', 'traitor', '--json', '--player']);
		expect(hitsOf(player.stdout).map((h) => h.ref)).not.toContain('s-traitor');

		const batch = await kanteraInProcess(dir, [
			'records',
			'search',
			'--session',
			session,
			'--queries',
			file('q.jsonl', [
				{ id: 'q1', query: 'ブラム' },
				{ id: 2, query: 'favour' }
			]),
			'--k',
			'3',
			'--no-cutoff'
		]);
		expect(batch.code).toBe(0);
		const out = batch.stdout
			.trim()
			.split('\n')
			.map((l) => v.parse(BatchLine, JSON.parse(l)));
		expect(out.map((o) => o.id)).toEqual(['q1', 2]);
		expect(out[0]?.results[0]).toMatchObject({
			ref: 'doc-world',
			kind: 'document',
			recordId: expect.any(Number),
			score: expect.any(Number),
			snippet: expect.stringContaining('ブラム')
		});
		expect(out[1]?.results[0]?.ref).toBe('m-bram');
		expect(out[0]?.results.length).toBeLessThanOrEqual(3);
	});

	it('a bad line imports nothing and says which line', async () => {
		const smugglers = async () => {
			const r = await kanteraInProcess(dir, [
				'records',
				'search',
				'--session',
				session,
				'--query',
				'smugglers',
				'--json',
				'--no-cutoff',
				'--k',
				'100'
			]);
			return hitsOf(r.stdout).filter((h) => /smugglers/i.test(h.snippet));
		};
		expect(await smugglers()).toEqual([]);
		const bad = await kanteraInProcess(dir, [
			'records',
			'import',
			'--session',
			session,
			'--file',
			file('bad.jsonl', [
				{ kind: 'journal', body: 'Smugglers land at dawn.' },
				{ kind: 'diary', body: 'x' }
			])
		]);
		expect(bad.code).toBe(1);
		expect(bad.stderr).toMatch(/bad\.jsonl:2: unknown record kind "diary"/);
		const notJson = await kanteraInProcess(dir, [
			'records',
			'import',
			'--session',
			session,
			'--file',
			file('nojson.jsonl', ['{"kind": "journal", "body": "Smugglers land at dawn."}', '{oops'])
		]);
		expect(notJson.code).toBe(1);
		expect(notJson.stderr).toMatch(/nojson\.jsonl:2: not valid JSON/);
		const duplicate = await kanteraInProcess(dir, [
			'records',
			'import',
			'--session',
			session,
			'--file',
			file('dup.jsonl', [
				{ kind: 'journal', body: 'Smugglers land at dawn.' },
				{ kind: 'memory', title: 'Bram', body: 'again' }
			])
		]);
		expect(duplicate.code).toBe(1);
		expect(duplicate.stderr).toMatch(/record 2: .*Bram/);
		expect(await smugglers()).toEqual([]);
		// The same line alone does import: the refusals above were about the bad lines.
		expect(
			(
				await kanteraInProcess(dir, [
					'records',
					'import',
					'--session',
					session,
					'--file',
					file('ok.jsonl', [{ kind: 'journal', body: 'Smugglers land at dawn.' }])
				])
			).code
		).toBe(0);
		expect(await smugglers()).toHaveLength(1);
	});

	it('usage errors exit 2; an unknown session exits 1', async () => {
		expect((await kanteraInProcess(dir, ['records', 'search', '--session', session])).code).toBe(2);
		expect((await kanteraInProcess(dir, ['records', 'search', '--session', session, '--query', 'x', '--k', '0'])).code).toBe(2);
		const unknown = await kanteraInProcess(dir, ['records', 'search', '--session', 'aaaaaaaaaaaaaaaaaaaa', '--query', 'x']);
		expect(unknown.code).toBe(1);
		expect(unknown.stderr).toMatch(/no play session/);
		const traversal = await kanteraInProcess(dir, ['records', 'import', '--session', '../../etc', '--file', '/etc/passwd']);
		expect(traversal.code).toBe(1);
	});
});

describe('kantera sessions create --world', () => {
	const tmp = tempDir('kantera-cli-world-');
	afterAll(() => tmp.remove());

	it('starts a session from an official world whose documents are then searchable', async () => {
		expect(
			(await kanteraInProcess(tmp.dir, ['user', 'create', '--name', 'keeper', '--password-stdin'], 'correct horse battery')).code
		).toBe(0);
		const created = await kanteraInProcess(tmp.dir, [
			'sessions',
			'create',
			'--title',
			'鉄脚',
			'--language',
			'ja',
			'--world',
			'iron-walkers'
		]);
		expect(created.code).toBe(0);
		const id = lastWord(created.stdout);
		const hits = await kanteraInProcess(tmp.dir, ['records', 'search', '--session', id, '--query', '無線', '--json', '--player']);
		expect(hitsOf(hits.stdout).length).toBeGreaterThan(0);
		const bad = await kanteraInProcess(tmp.dir, ['sessions', 'create', '--title', 'x', '--world', 'atlantis']);
		expect(bad.code).toBe(1);
		expect(bad.stderr).toMatch(/Choose one of the listed worlds/);
	});
});
