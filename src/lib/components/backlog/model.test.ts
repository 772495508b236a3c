/** The backlog's data model: paging in front, live messages, catch-up pages, stage replay. */
import { describe, expect, it } from 'vitest';
import { BacklogModel } from './model';
import { EMPTY_STAGE, StageTimeline, type MessageCue, type StageCue, type StageState } from '../../adv';
import type { LogPageDto, MessageDto, StageImagesDto } from '../../types/log';

const at = '2026-01-01T00:00:00.000Z';
const gm = (id: number, body: string): MessageDto => ({ id, role: 'gm', speaker: null, body, turnId: null, createdAt: at });
const player = (id: number, body: string): MessageDto => ({ id, role: 'player', speaker: null, body, turnId: null, createdAt: at });
const images = { characters: [], scenes: [] };

/** A log of `n` exchanges with cues, and the pages the server would give (stageBefore folded from the start). */
function fixture(n: number, pageSize: number) {
	const messages: MessageDto[] = [];
	const cues: MessageCue[] = [];
	const people = ['Bram', 'Ana', 'Kit', 'Sal'];
	let id = 0;
	for (let t = 0; t < n; t++) {
		messages.push(player(++id, `Look ${t}`));
		const gmId = ++id;
		const who = people[t % 4] ?? 'Bram';
		messages.push(gm(gmId, `Fog ${t}.\n\n@${who}: Line ${t}.`));
		const list: StageCue[] =
			t % 2 === 0
				? [
						{ paragraph: 0, action: 'background', scene: `Place ${t % 3}` },
						{ paragraph: 1, action: 'enter', character: who, slot: (['left', 'center', 'right'] as const)[t % 3] ?? 'left' }
					]
				: [{ paragraph: 1, action: 'exit', character: people[(t + 3) % 4] ?? 'Sal' }];
		list.forEach((cue, ord) => cues.push({ messageId: gmId, paragraph: cue.paragraph, ord, cue }));
	}
	const full = new StageTimeline(messages, cues);
	const page = (before: number | undefined): LogPageDto => {
		const older = messages.filter((m) => before === undefined || m.id < before);
		const rows = older.slice(-pageSize);
		const first = rows[0];
		const ids = new Set(rows.map((m) => m.id));
		return {
			messages: rows,
			cues: cues.filter((c) => ids.has(c.messageId)),
			stageBefore: first ? full.before(first.id) : EMPTY_STAGE,
			...(first && rows.length === pageSize && older.length > pageSize ? { nextBefore: first.id } : {}),
			images
		};
	};
	return { messages, cues, full, page };
}

describe('BacklogModel', () => {
	it('replays every line as the whole log would, however many older pages were added in front', () => {
		const { messages, full, page } = fixture(40, 15);
		const model = new BacklogModel();
		const first = model.reset(page(undefined));
		expect(first.appended.length).toBe(model.entries.length);
		let pages = 1;
		while (model.hasOlder) {
			const before = model.entries.length;
			const merge = model.addOlder(page(model.nextBefore));
			expect(merge.prepended.length).toBe(model.entries.length - before);
			pages++;
			for (const e of model.entries) expect(model.stageAt(e.messageId, e.paragraph), e.key).toEqual(full.at(e.messageId, e.paragraph));
		}
		expect(pages).toBe(Math.ceil(messages.length / 15));
		expect(model.entries.map((e) => e.messageId)[0]).toBe(1);
		// A page seen twice adds nothing.
		expect(model.addOlder(page(undefined)).prepended).toEqual([]);
	});

	it('shows live messages at once, then takes their cues from a catch-up page', () => {
		const { messages, cues, full } = fixture(6, 100);
		const head = messages.slice(0, 8);
		const headIds = new Set(head.map((m) => m.id));
		const model = new BacklogModel();
		model.reset({ messages: head, cues: cues.filter((c) => headIds.has(c.messageId)), stageBefore: EMPTY_STAGE, images });
		expect(model.needsCatchUp).toBe(false);
		const tail = messages.slice(8);
		const merge = model.addNewer([...tail].reverse().map(({ id, role, body }) => ({ id, role, body })));
		expect(merge.appended.map((e) => e.messageId)).toEqual(tail.flatMap((m) => (m.role === 'gm' ? [m.id, m.id] : [m.id])));
		expect(model.needsCatchUp).toBe(true);
		expect(model.pageThrough).toBe(8);
		const last = tail[tail.length - 1];
		if (!last) throw new Error('fixture too small');
		// Without its cues the last line shows the stage as it stood before them.
		const stale: StageState = model.stageAt(last.id, 1);
		const tailIds = new Set(tail.map((m) => m.id));
		const again = model.addPage({ messages: tail, cues: cues.filter((c) => tailIds.has(c.messageId)), images });
		expect(again.appended).toEqual([]);
		expect(model.needsCatchUp).toBe(false);
		expect(model.stageAt(last.id, 1)).toEqual(full.at(last.id, 1));
		expect(stale).not.toEqual(full.at(last.id, 1));
		// Repeats of known messages add nothing.
		expect(model.addNewer(tail).appended).toEqual([]);
	});

	it('starts over on a first page: nothing of the log loaded before stays', () => {
		const { page } = fixture(6, 4);
		const model = new BacklogModel();
		model.reset(page(undefined));
		model.addNewer([{ id: 50, role: 'player', body: 'A live line.' }]);
		expect(model.hasOlder).toBe(true);
		const other: LogPageDto = { messages: [player(1, 'Elsewhere.')], cues: [], stageBefore: EMPTY_STAGE, images };
		const merge = model.reset(other);
		expect(merge.appended.map((e) => e.key)).toEqual(['1:0']);
		expect(model.entries).toEqual(merge.appended);
		expect([model.messageCount, model.firstId, model.lastId, model.pageThrough, model.hasOlder]).toEqual([1, 1, 1, 1, false]);
		// A message of the other log is new again here.
		expect(model.addNewer([gm(12, 'Back again.')]).appended.map((e) => e.key)).toEqual(['12:0']);
	});

	it('loads an empty log as loaded, with no rows; its first live message asks for its cues from the start', () => {
		const model = new BacklogModel();
		expect(model.loaded).toBe(false);
		model.reset({ messages: [], cues: [], stageBefore: EMPTY_STAGE, images });
		expect([model.loaded, model.entries.length, model.needsCatchUp, model.lastId]).toEqual([true, 0, false, undefined]);
		model.addNewer([gm(1, 'Fog.')]);
		expect([model.needsCatchUp, model.pageThrough]).toEqual([true, 0]);
	});

	it('keeps the image list of the newest page that brought one', () => {
		const { page } = fixture(4, 100);
		const model = new BacklogModel();
		model.reset(page(undefined));
		const withBram: StageImagesDto = { characters: [{ name: 'Bram', url: null, status: 'pending' }], scenes: [] };
		model.addPage({ messages: [], cues: [], images: withBram });
		expect(model.images).toEqual(withBram);
		model.addNewer([gm(99, 'Live.')]);
		expect(model.images).toEqual(withBram);
	});
});
