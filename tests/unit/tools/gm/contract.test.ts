import { describe, expect, it } from 'vitest';
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
			expect(tool.description.length, tool.name).toBeGreaterThan(40);
		}
	});

	it('describes every argument, so the schema alone tells the model what to send', () => {
		for (const tool of GM_TOOLS) {
			const properties = tool.parameters.properties;
			if (!isObject(properties)) throw new Error(`${tool.name} has no properties`);
			for (const [name, schema] of Object.entries(properties)) {
				expect(isObject(schema) && typeof schema.description === 'string' && schema.description.length > 10, `${tool.name}.${name}`).toBe(
					true
				);
			}
		}
	});

	it('bounds every string argument', () => {
		const unbounded: string[] = [];
		const visit = (schema: unknown, where: string) => {
			if (!isObject(schema)) return;
			if (schema.type === 'string' && schema.enum === undefined && typeof schema.maxLength !== 'number') unbounded.push(where);
			if (isObject(schema.properties)) for (const [k, s] of Object.entries(schema.properties)) visit(s, `${where}.${k}`);
			if (schema.items !== undefined) visit(schema.items, `${where}[]`);
		};
		for (const tool of GM_TOOLS) visit(tool.parameters, tool.name);
		expect(unbounded).toEqual([]);
	});

	it('shows the player only harmless activity names, never the story DB or the GM notes', () => {
		for (const name of PLAYER_VISIBLE_TOOL_ACTIVITY) expect(FIFTEEN).toContain(name);
		for (const name of ['roll_dice', 'set_scene', 'register_npc', 'adv_stage']) expect(PLAYER_VISIBLE_TOOL_ACTIVITY.has(name)).toBe(true);
		for (const name of FIFTEEN.filter((n) => n.startsWith('story_'))) expect(PLAYER_VISIBLE_TOOL_ACTIVITY.has(name)).toBe(false);
		expect(PLAYER_VISIBLE_TOOL_ACTIVITY.has('memory')).toBe(false);
	});
});
