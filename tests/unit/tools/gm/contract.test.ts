import { describe, expect, it } from 'vitest';
import { toJsonSchema } from '@valibot/to-json-schema';
import { GM_TOOLS, gmToolMap, PLAYER_VISIBLE_TOOL_ACTIVITY } from '../../../../src/lib/server/tools';

const FIFTEEN = [
	'recall',
	'read_document',
	'get_state',
	'update_state',
	'journal_append',
	'journal_read',
	'memory',
	'story_read',
	'story_begin',
	'story_revise',
	'story_advance',
	'roll_dice',
	'register_npc',
	'set_scene',
	'adv_stage'
];

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Valid calls that, between them, give every argument of a tool (for each action that takes it). */
const WITH_EVERY_ARGUMENT: Record<string, Record<string, unknown>[]> = {
	recall: [{ query: 'gate', k: 3, kinds: ['journal'] }],
	read_document: [{ id: 1, section: 'Gate' }, { title: 'World' }],
	get_state: [{ keys: ['hp'] }],
	update_state: [{ patch: { hp: 3 } }],
	journal_append: [{ entry: 'The gate opened.' }],
	journal_read: [{ last: 5, after_id: 2 }],
	memory: [
		{ action: 'create', name: 'Bram', body: 'Gate guard.' },
		{ action: 'edit', name: 'Bram', old_text: 'Gate', new_text: 'North gate' }
	],
	story_read: [{ type: 'truth', key: 'arc' }],
	story_begin: [{ type: 'quest', key: 'find-the-key', title: 'The key', body: 'Find it.' }],
	story_revise: [{ key: 'arc', title: 'Arc', body: 'The regent schemes.' }],
	story_advance: [
		{ action: 'confirm_truth', key: 'heir', title: 'Heir', body: 'Bram is the heir.' },
		{ action: 'resolve_quest', key: 'find-the-key', outcome: 'failed', result: 'Lost.', next_plan: 'The thief sells it.' }
	],
	roll_dice: [{ notation: '1d20', reason: 'climb' }],
	register_npc: [{ name: 'Bram', appearance: 'grey beard', regenerate: true, expressions: ['smile'] }],
	set_scene: [{ name: 'Gate', description: 'stone gate', regenerate: false }],
	adv_stage: [
		{ cues: [{ paragraph: 0, action: 'enter', character: 'Bram', slot: 'left', expression: 'smile' }], choices: ['Ask', 'Leave'] },
		{ cues: [{ paragraph: 1, action: 'background', scene: 'Gate' }] }
	]
};

/** Copies of a valid value, each just past one bound its JSON Schema states (nested ones too). */
function pastTheBounds(schema: unknown, value: unknown): unknown[] {
	if (!isObject(schema)) return [];
	const out: unknown[] = [];
	const num = (key: string) => (typeof schema[key] === 'number' ? schema[key] : undefined);
	if (typeof value === 'string') {
		const max = num('maxLength');
		const min = num('minLength');
		if (max !== undefined) out.push('x'.repeat(max + 1));
		if (min !== undefined && min > 0) out.push('x'.repeat(min - 1));
	}
	if (typeof value === 'number') {
		const max = num('maximum');
		const min = num('minimum');
		if (max !== undefined) out.push(max + 1);
		if (min !== undefined) out.push(min - 1);
	}
	if (Array.isArray(value) && value.length > 0) {
		const items: unknown[] = value;
		const max = num('maxItems');
		const min = num('minItems');
		if (max !== undefined) out.push(Array.from({ length: max + 1 }, () => items[0]));
		if (min !== undefined && min > 0) out.push(items.slice(0, min - 1));
		for (const bad of pastTheBounds(schema.items, items[0])) out.push([bad, ...items.slice(1)]);
	}
	if (isObject(value) && isObject(schema.properties)) {
		for (const [key, sub] of Object.entries(schema.properties))
			if (key in value) for (const bad of pastTheBounds(sub, value[key])) out.push({ ...value, [key]: bad });
	}
	return out;
}

describe('the GM tool list', () => {
	it('names exactly the fifteen tools of the design brief, in its order', () => {
		expect(GM_TOOLS.map((t) => t.name)).toEqual(FIFTEEN);
		expect([...gmToolMap().keys()]).toEqual(FIFTEEN);
	});

	it('gives every provider a plain object schema with no combinators at the top', () => {
		for (const tool of GM_TOOLS) {
			const p = tool.parameters;
			expect(p.type, tool.name).toBe('object');
			expect(isObject(p.properties), tool.name).toBe(true);
			expect(p, tool.name).not.toHaveProperty('$schema');
			// Anthropic refuses oneOf/anyOf/allOf at the top of input_schema.
			for (const key of ['oneOf', 'anyOf', 'allOf']) expect(p, `${tool.name}.${key}`).not.toHaveProperty(key);
			expect(tool.description.length, tool.name).toBeGreaterThan(20);
		}
	});

	it('types every argument on the wire (some providers refuse a property without a type)', () => {
		const untyped: string[] = [];
		const visit = (schema: unknown, where: string) => {
			if (!isObject(schema)) return;
			if (typeof schema.type !== 'string') untyped.push(where);
			if (isObject(schema.properties)) for (const [k, s] of Object.entries(schema.properties)) visit(s, `${where}.${k}`);
			if (schema.items !== undefined) visit(schema.items, `${where}[]`);
		};
		for (const tool of GM_TOOLS) visit(tool.parameters, tool.name);
		expect(untyped).toEqual([]);
	});

	it('sends no bounds, defaults or empty lists: validation holds them, the model does not need them on every call', () => {
		const noise = /"(minLength|maxLength|minItems|maxItems|minProperties|maxProperties|minimum|maximum|default|\$schema)"|"required":\[\]/;
		for (const tool of GM_TOOLS) expect(JSON.stringify(tool.parameters), tool.name).not.toMatch(noise);
	});

	it('bounds every string argument in the contract (the valibot schema that validates a call)', () => {
		const unbounded: string[] = [];
		const visit = (schema: unknown, where: string) => {
			if (!isObject(schema)) return;
			if (schema.type === 'string' && schema.enum === undefined && typeof schema.maxLength !== 'number') unbounded.push(where);
			if (isObject(schema.properties)) for (const [k, s] of Object.entries(schema.properties)) visit(s, `${where}.${k}`);
			if (schema.items !== undefined) visit(schema.items, `${where}[]`);
		};
		for (const tool of GM_TOOLS) visit(toJsonSchema(tool.schema, { typeMode: 'input', errorMode: 'throw' }), tool.name);
		expect(unbounded).toEqual([]);
	});

	it('still rejects a call past any bound of the contract, though the wire no longer shows the bounds', () => {
		let checked = 0;
		for (const tool of GM_TOOLS) {
			const contract = toJsonSchema(tool.schema, { typeMode: 'input', errorMode: 'throw' });
			const bases = WITH_EVERY_ARGUMENT[tool.name] ?? [];
			expect(bases.length, tool.name).toBeGreaterThan(0);
			for (const base of bases) {
				expect(tool.parse(base).success, `${tool.name} ${JSON.stringify(base)}`).toBe(true);
				for (const bad of pastTheBounds(contract, base)) {
					expect(tool.parse(bad).success, `${tool.name} ${JSON.stringify(bad).slice(0, 200)}`).toBe(false);
					checked++;
				}
			}
		}
		// Every length, count and range bound of the fifteen tools was tried, both sides where there are two (85 in issue 26).
		expect(checked).toBeGreaterThanOrEqual(85);
	});

	it('shows the player only harmless activity names, never the story DB or the GM notes', () => {
		for (const name of PLAYER_VISIBLE_TOOL_ACTIVITY) expect(FIFTEEN).toContain(name);
		for (const name of ['roll_dice', 'set_scene', 'register_npc', 'adv_stage']) expect(PLAYER_VISIBLE_TOOL_ACTIVITY.has(name)).toBe(true);
		for (const name of FIFTEEN.filter((n) => n.startsWith('story_'))) expect(PLAYER_VISIBLE_TOOL_ACTIVITY.has(name)).toBe(false);
		expect(PLAYER_VISIBLE_TOOL_ACTIVITY.has('memory')).toBe(false);
	});
});
