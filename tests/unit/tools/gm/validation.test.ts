import { describe, expect, it } from 'vitest';
import { documents } from '../../../../src/lib/server/records';
import { GM_TOOLS } from '../../../../src/lib/server/tools';
import { dump, useTurns } from './helpers';

const withTurn = useTurns();

/** For every tool, arguments a model might plausibly get wrong, and what the error must name. */
const MALFORMED: Record<string, [unknown, RegExp][]> = {
	recall: [
		[{}, /query/],
		[{ query: '' }, /query: must not be empty/],
		[{ query: 'x', k: 0 }, /k/],
		[{ query: 'x', kinds: ['gossip'] }, /kinds\.0/]
	],
	read_document: [
		[{ id: 'one' }, /id/],
		[{ id: 1.5 }, /id/]
	],
	get_state: [[{ keys: 'hp' }, /keys/]],
	update_state: [
		[{}, /patch/],
		[{ patch: {} }, /patch: the patch is empty/],
		[{ patch: [1, 2] }, /patch/],
		[{ patch: '{"hp": 3}' }, /patch/],
		[{ patch: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`key${i}`, i])) }, /patch/]
	],
	journal_append: [
		[{ entry: '' }, /entry/],
		[{ text: 'hello' }, /entry/],
		[{ entry: 'x'.repeat(4001) }, /entry/]
	],
	journal_read: [
		[{ last: 0 }, /last/],
		[{ last: 51 }, /last/]
	],
	memory: [
		[{ action: 'write', name: 'a' }, /action/],
		[{ action: 'create', name: 'a' }, /body: create needs "name" and "body"/],
		[{ action: 'view' }, /name: view needs "name"/],
		[{ action: 'edit', name: 'a' }, /either "body" .* or both "old_text" and "new_text"/],
		[{ action: 'edit', name: 'a', body: 'b', old_text: 'c', new_text: 'd' }, /not both/]
	],
	story_read: [[{ type: 'secret' }, /type/]],
	story_begin: [
		[{ type: 'quest', key: 'k' }, /body/],
		[{ type: 'truth', key: 'k', body: 'b' }, /confirm_truth/]
	],
	story_revise: [[{ key: 'k' }, /body/]],
	story_advance: [
		[{ action: 'confirm_truth', key: 'k' }, /body: confirm_truth needs "key" and "body"/],
		[{ action: 'resolve_quest', key: 'k', result: 'r', next_plan: 'n', outcome: 'won' }, /outcome/],
		[{ action: 'overwrite_truth', key: 'k', body: 'b' }, /action/]
	],
	roll_dice: [
		[{}, /notation/],
		[{ notation: 20 }, /notation/]
	],
	register_npc: [
		[{ name: 'Bram' }, /appearance/],
		[{ name: 'x'.repeat(101), appearance: 'a' }, /name/]
	],
	set_scene: [[{ name: 'Gate' }, /description/]],
	adv_stage: [
		[{ cues: [{ paragraph: 0, action: 'enter' }] }, /cues\.0\.character/],
		[{}, /cues/]
	]
};

/** One valid call per tool, in an order where each finds what it needs. */
const VALID: [string, unknown][] = [
	['update_state', { patch: { location: 'Gate' } }],
	['get_state', {}],
	['journal_append', { entry: 'The party reached the gate.' }],
	['journal_read', { last: 5 }],
	['recall', { query: 'gate' }],
	['read_document', { title: 'World' }],
	['memory', { action: 'create', name: 'Bram', body: 'Gate guard.' }],
	['story_begin', { type: 'plot', key: 'arc', body: 'The regent schemes.' }],
	['story_revise', { key: 'arc', body: 'The regent schemes and fails.' }],
	['story_advance', { action: 'confirm_truth', key: 'regent', body: 'The regent is guilty.' }],
	['story_read', { type: 'truth' }],
	['roll_dice', { notation: '1d20+2' }],
	['register_npc', { name: 'Bram', appearance: 'grey beard' }],
	['set_scene', { name: 'Gate', description: 'stone gate' }],
	['adv_stage', { cues: [{ paragraph: 0, action: 'enter', character: 'Bram', slot: 'center' }] }]
];

describe('valid arguments', () => {
	it("run every tool's handler", async () => {
		expect(VALID.map(([name]) => name).sort()).toEqual(GM_TOOLS.map((t) => t.name).sort());
		await withTurn(async (t) => {
			await t.s.write((tx) => documents.create(tx, { title: 'World', body: '# Gate\nstone' }));
			for (const [name, args] of VALID) {
				const r = await t.call(name, args);
				expect(r, `${name}: ${r.content}`).toMatchObject({ name, isError: false, ran: true });
			}
			expect(t.staging.size).toBe(8);
			expect(t.ctx.cues).toHaveLength(1);
		});
	});
});

describe('malformed arguments', () => {
	it('has cases for every tool', () => {
		expect(Object.keys(MALFORMED).sort()).toEqual(GM_TOOLS.map((t) => t.name).sort());
	});

	it('reach the model as a validation error naming the field; no handler runs and nothing is written', async () => {
		await withTurn(async (t) => {
			await t.s.write((tx) => documents.create(tx, { title: 'World', body: '# Gate\nstone' }));
			const before = await dump(t.s);
			for (const [name, cases] of Object.entries(MALFORMED)) {
				for (const [args, field] of cases) {
					const r = await t.call(name, args);
					const label = `${name} ${JSON.stringify(args)}`;
					expect(r, label).toMatchObject({ isError: true, ran: false, name });
					expect(r.content, label).toMatch(/invalid arguments, nothing was done/);
					expect(r.content, label).toMatch(field);
				}
			}
			expect(t.staging.size).toBe(0);
			expect(t.ctx.cues).toEqual([]);
			await t.commit();
			expect(await dump(t.s)).toEqual(before);
		});
	});

	it('reports arguments that are not JSON at all', async () => {
		await withTurn(async (t) => {
			for (const tool of GM_TOOLS) {
				const r = await t.call(tool.name, 'I will now record that the gate is open.');
				expect(r, tool.name).toMatchObject({ isError: true, ran: false });
				expect(r.content).toMatch(/not valid JSON/);
			}
		});
	});
});
