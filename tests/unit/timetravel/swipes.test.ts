import { describe, it, expect, afterEach } from 'vitest';
import { settled, turnHarness, type TurnHarness } from '../../helpers/turns';
import { changedTables, dumpSession, type Dump } from '../../helpers/dump';
import { lastTurn, type ScriptedReply } from '../../mock-llm';
import { newId, sessionSchema } from '../../../src/lib/server/db';
import { chooseAlternative, listAlternatives, newAlternative, undoTurn } from '../../../src/lib/server/timetravel';

let h: TurnHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

const dump = (h: TurnHarness): Promise<Dump> => h.use((s) => dumpSession(s.client));

const SETUP: ScriptedReply[] = [
	{
		toolCalls: [
			{ name: 'update_state', arguments: { patch: { location: 'North Gate', hp: 10, hpMax: 10, inventory: ['lantern'] } } },
			{ name: 'memory', arguments: { action: 'create', name: 'Bram', body: 'Gate guard. Owes the PC a favour.' } },
			{ name: 'story_begin', arguments: { type: 'plot', key: 'arc-1', title: 'The stolen seal', body: 'The magistrate stole the seal.' } },
			{ name: 'set_scene', arguments: { name: 'North Gate', description: 'A massive stone gate, torches, light snow at dusk.' } }
		]
	},
	{ text: 'Bram waves you over.' }
];

/** One reply to the line: every record kind written its own way (`place`, `who`). */
function reply(place: string, who: string, said: string): ScriptedReply[] {
	return [
		{
			toolCalls: [
				{ name: 'update_state', arguments: { patch: { location: place, hp: place.length } } },
				{ name: 'journal_append', arguments: { entry: `Night: the party went to the ${place}.` } },
				{ name: 'memory', arguments: { action: 'edit', name: 'Bram', body: `Gate guard. Sent the PC to the ${place}.` } },
				{ name: 'memory', arguments: { action: 'create', name: who, body: `${who} waits at the ${place}.` } },
				{ name: 'story_revise', arguments: { key: 'arc-1', title: 'The stolen seal', body: `${who} holds the seal at the ${place}.` } },
				{ name: 'set_scene', arguments: { name: place, description: `The ${place}, one lamp.` } },
				{ name: 'adv_stage', arguments: { cues: [{ paragraph: 0, action: 'background', scene: place }] } }
			]
		},
		{ text: said }
	];
}

const LINE = 'I follow the lead';

async function records(h: TurnHarness) {
	return h.use(async (s) => ({
		state: (await s.db.select().from(sessionSchema.state))[0]?.doc,
		journal: (await s.db.select().from(sessionSchema.journal)).map((j) => j.body),
		notes: (await s.db.select().from(sessionSchema.memoryNotes)).map((n) => `${n.name}: ${n.body}`),
		story: (await s.db.select().from(sessionSchema.storyEntries)).map((e) => e.body),
		log: (await s.db.select().from(sessionSchema.logMessages)).map((m) => m.body)
	}));
}

describe('swipes', () => {
	it('another reply to the same line, and back: each alternative with exactly its own records', async () => {
		h = await turnHarness('openai');
		const harness = h;
		h.mock.script(SETUP);
		await h.play('I walk to the north gate');
		await settled(h);
		const start = await dump(h);

		h.mock.script(reply('Cellar', 'Mira', 'The cellar smells of wine.'));
		const first = await h.play(LINE);
		await settled(h);
		const dumpFirst = await dump(h);
		const recordsFirst = await records(h);

		const requests = h.mock.requests.length;
		h.mock.script(reply('Harbour', 'Oskar', 'Gulls cry over the harbour.'));
		const key = newId();
		const made = await h.use((s) => newAlternative(harness.app, s, harness.userId, first.id, key));
		expect(made).toMatchObject({ status: 'accepted', created: true });
		await settled(h);
		// The new reply answers the same line, from the records before the first reply.
		// Its first request (the second carries the tool results).
		const sent = h.mock.requests[requests];
		expect(sent && lastTurn(sent)).toEqual({ kind: 'user', text: LINE });
		expect(sent?.openai?.messages.some((m) => m.content === 'The cellar smells of wine.')).toBe(false);
		const dumpSecond = await dump(h);
		const recordsSecond = await records(h);
		expect(recordsSecond.state).toMatchObject({ location: 'Harbour' });
		expect(recordsSecond.journal).toEqual(['Night: the party went to the Harbour.']);
		expect(recordsSecond.notes).toEqual(['Bram: Gate guard. Sent the PC to the Harbour.', 'Oskar: Oskar waits at the Harbour.']);
		expect(recordsSecond.log).toEqual(['I walk to the north gate', 'Bram waves you over.', LINE, 'Gulls cry over the harbour.']);
		expect(changedTables(dumpFirst, dumpSecond)).toEqual(
			expect.arrayContaining(['journal', 'log_messages', 'memory_notes', 'scenes', 'sections', 'state', 'story_entries', 'turns'])
		);

		// A resend of the request makes nothing new.
		const again = await h.use((s) => newAlternative(harness.app, s, harness.userId, first.id, key));
		expect(again).toMatchObject({ turnId: made.turnId, created: false });
		await settled(h);
		expect(h.mock.requests.length - requests).toBe(2);

		expect(await h.use((s) => listAlternatives(s, made.turnId))).toEqual([
			{ id: first.id, text: 'The cellar smells of wine.', current: false },
			{ id: made.turnId, text: 'Gulls cry over the harbour.', current: true }
		]);

		// Back to the first reply: every record exactly as it left them.
		const items = await h.use((s) => chooseAlternative(harness.app, s, made.turnId, first.id));
		expect(items.map((i) => [i.id, i.current])).toEqual([
			[first.id, true],
			[made.turnId, false]
		]);
		await settled(h);
		expect(await records(h)).toEqual(recordsFirst);
		expect(changedTables(dumpFirst, await dump(h))).toEqual([]);
		expect(await dump(h)).toEqual(dumpFirst);
		// Choosing the one on screen changes nothing.
		await h.use((s) => chooseAlternative(harness.app, s, first.id, first.id));

		// And to the second again.
		await h.use((s) => chooseAlternative(harness.app, s, first.id, made.turnId));
		await settled(h);
		expect(await dump(h)).toEqual(dumpSecond);
		expect(h.mock.requests.length - requests).toBe(2);

		// The reply chosen came back with its undo log: it can be undone to the records before the line.
		await h.use((s) => undoTurn(harness.app, s, made.turnId, newId()));
		await settled(h);
		expect(await dump(h)).toEqual(start);
	});

	it('the reply on screen when the next line is sent is the one the story keeps; the earlier line cannot be swiped then', async () => {
		h = await turnHarness('openai');
		const harness = h;
		h.mock.script([...reply('Cellar', 'Mira', 'The cellar smells of wine.'), ...reply('Harbour', 'Oskar', 'Gulls cry over the harbour.')]);
		const first = await h.play(LINE);
		const made = await h.use((s) => newAlternative(harness.app, s, harness.userId, first.id, newId()));
		await settled(h);
		await h.use((s) => chooseAlternative(harness.app, s, made.turnId, first.id));
		await settled(h);
		h.mock.script([{ text: 'You light a candle.' }]);
		await h.play('I light a candle');
		const sent = h.mock.requests.at(-1);
		const contents = JSON.stringify(sent?.openai?.messages ?? []);
		expect(contents).toContain('The cellar smells of wine.');
		expect(contents).not.toContain('Gulls cry over the harbour.');
		expect((await records(h)).state).toMatchObject({ location: 'Cellar' });
		await expect(h.use((s) => chooseAlternative(harness.app, s, first.id, made.turnId))).rejects.toMatchObject({ code: 'not_last' });
		await expect(h.use((s) => newAlternative(harness.app, s, harness.userId, first.id, newId()))).rejects.toMatchObject({
			code: 'not_last'
		});
		expect((await records(h)).state).toMatchObject({ location: 'Cellar' });
	});

	it("after the next line is undone, the swiped line's replies are all reachable again, each with its own records", async () => {
		h = await turnHarness('openai');
		const harness = h;
		h.mock.script([...reply('Cellar', 'Mira', 'The cellar smells of wine.'), ...reply('Harbour', 'Oskar', 'Gulls cry over the harbour.')]);
		const first = await h.play(LINE);
		await settled(h);
		const recordsFirst = await records(h);
		const made = await h.use((s) => newAlternative(harness.app, s, harness.userId, first.id, newId()));
		await settled(h);
		const recordsSecond = await records(h);
		h.mock.script([{ text: 'You light a candle.' }]);
		const next = await h.play('I light a candle');
		await settled(h);
		await h.use((s) => undoTurn(harness.app, s, next.id, newId()));
		await settled(h);
		expect(await records(h)).toEqual(recordsSecond);
		expect(await h.use((s) => listAlternatives(s, made.turnId))).toEqual([
			{ id: first.id, text: 'The cellar smells of wine.', current: false },
			{ id: made.turnId, text: 'Gulls cry over the harbour.', current: true }
		]);
		await h.use((s) => chooseAlternative(harness.app, s, made.turnId, first.id));
		await settled(h);
		expect(await records(h)).toEqual(recordsFirst);
	});

	it('a turn never swiped lists itself; an unknown turn or alternative is not found', async () => {
		h = await turnHarness('openai');
		const harness = h;
		h.mock.script([{ text: 'A reply.' }]);
		const turn = await h.play(LINE);
		expect(await h.use((s) => listAlternatives(s, turn.id))).toEqual([{ id: turn.id, text: 'A reply.', current: true }]);
		await expect(h.use((s) => listAlternatives(s, 'nope'))).rejects.toMatchObject({ code: 'not_found' });
		await expect(h.use((s) => chooseAlternative(harness.app, s, turn.id, 'nope'))).rejects.toMatchObject({ code: 'not_found' });
		await expect(h.use((s) => newAlternative(harness.app, s, harness.userId, 'nope', newId()))).rejects.toMatchObject({
			code: 'not_found'
		});
	});
});
