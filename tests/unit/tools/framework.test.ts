import { describe, it, expect } from 'vitest';
import * as v from 'valibot';
import { defineTool } from '../../../src/lib/server/tools/define';
import { runToolCall, toolMap, ToolError, parseArguments } from '../../../src/lib/server/tools/run';

interface Ctx {
	calls: unknown[];
}

const cut = defineTool({
	name: 'cut_cloth',
	description: 'Cut cloth to a length.',
	schema: v.object({ lengthCm: v.pipe(v.number(), v.minValue(1), v.maxValue(500)), fabric: v.picklist(['silk', 'wool']) }),
	handler: (args, ctx: Ctx) => {
		ctx.calls.push(args);
		if (args.fabric === 'silk' && args.lengthCm > 300) throw new ToolError('not enough silk on the bolt');
		return { cut: args.lengthCm };
	}
});
const broken = defineTool({
	name: 'broken',
	description: 'Always fails.',
	schema: v.object({}),
	handler: () => {
		throw new TypeError('x is undefined');
	}
});
const tools = toolMap([cut, broken]);

describe('tool contracts (seed 001)', () => {
	it('derives the JSON Schema sent to providers from the one valibot schema, without its bounds', () => {
		expect(cut.parameters).toEqual({
			type: 'object',
			properties: { lengthCm: { type: 'number' }, fabric: { enum: ['silk', 'wool'], type: 'string' } },
			required: ['lengthCm', 'fabric']
		});
		expect(broken.parameters).toEqual({ type: 'object', properties: {} });
	});

	it('still checks the bounds it does not send', async () => {
		const ctx: Ctx = { calls: [] };
		const r = await runToolCall(tools, { id: 'c0', name: 'cut_cloth', arguments: '{"lengthCm": 501, "fabric": "wool"}' }, ctx);
		expect(r).toMatchObject({ isError: true, ran: false });
		expect(r.content).toMatch(/lengthCm/);
		expect(ctx.calls).toEqual([]);
	});

	it('runs the handler for a valid call', async () => {
		const ctx: Ctx = { calls: [] };
		const r = await runToolCall(tools, { id: 'c1', name: 'cut_cloth', arguments: '{"lengthCm": 120, "fabric": "wool"}' }, ctx);
		expect(r).toMatchObject({ callId: 'c1', isError: false, ran: true, content: '{"cut":120}' });
		expect(ctx.calls).toEqual([{ lengthCm: 120, fabric: 'wool' }]);
	});

	it('reports invalid arguments to the model without running the handler', async () => {
		const ctx: Ctx = { calls: [] };
		const r = await runToolCall(tools, { id: 'c2', name: 'cut_cloth', arguments: '{"lengthCm": "long", "fabric": "denim"}' }, ctx);
		expect(r.isError).toBe(true);
		expect(r.ran).toBe(false);
		expect(r.content).toMatch(/lengthCm/);
		expect(r.content).toMatch(/fabric/);
		expect(ctx.calls).toEqual([]);
	});

	it('reports arguments that are not JSON, and unknown tools', async () => {
		const ctx: Ctx = { calls: [] };
		const chatter = await runToolCall(tools, { id: 'c3', name: 'cut_cloth', arguments: 'Sure! I will cut 120cm of wool.' }, ctx);
		expect(chatter).toMatchObject({ isError: true, ran: false });
		expect(chatter.content).toMatch(/not valid JSON/);
		const unknown = await runToolCall(tools, { id: 'c4', name: 'sew', arguments: '{}' }, ctx);
		expect(unknown).toMatchObject({ isError: true, ran: false });
		expect(unknown.content).toMatch(/unknown tool "sew".*cut_cloth/);
		expect(ctx.calls).toEqual([]);
	});

	it('turns handler errors into readable tool errors without internals', async () => {
		const ctx: Ctx = { calls: [] };
		const refused = await runToolCall(tools, { id: 'c5', name: 'cut_cloth', arguments: '{"lengthCm": 400, "fabric": "silk"}' }, ctx);
		expect(refused).toMatchObject({ isError: true, ran: true, content: 'cut_cloth: not enough silk on the bolt' });
		const crash = await runToolCall(tools, { id: 'c6', name: 'broken', arguments: '' }, ctx);
		expect(crash.isError).toBe(true);
		expect(crash.content).toBe('broken failed: TypeError: x is undefined. Nothing from this call was saved.');
	});

	it('accepts fenced JSON and empty arguments', () => {
		expect(parseArguments('```json\n{"a":1}\n```')).toEqual({ ok: true, value: { a: 1 } });
		expect(parseArguments('  ')).toEqual({ ok: true, value: {} });
		expect(parseArguments('{a:1}').ok).toBe(false);
	});
});
