import { describe, expect, it } from 'vitest';
import { DEFAULT_CHECKPOINT_CUES, StageTimeline, type LogMessage, type MessageCue } from './replay';
import type { StageCue } from './cue';
import { parseScript } from './script';
import { applyCues, EMPTY_STAGE, playOrder, stageAt, withSpeaker, type StageState } from './stage';
import { seeded, type Random } from '../../../tests/helpers/random';

const NAMES = ['Bram', 'Ana', 'Cole', 'Dara', 'Eli'];
const SLOTS = ['left', 'center', 'right'] as const;
const ACTIONS = ['enter', 'enter', 'exit', 'move', 'expression', 'background'] as const;

interface Log {
	messages: LogMessage[];
	cues: MessageCue[];
}

/** A test-data factory: a play log of alternating player and GM messages, GM messages with cues. */
function randomLog(rng: Random, count: number, cuesPerGm = 4): Log {
	const messages: LogMessage[] = [];
	const cues: MessageCue[] = [];
	for (let id = 1; id <= count; id++) {
		const role = id % 2 === 1 ? 'player' : rng.chance(0.95) ? 'gm' : 'system';
		const paragraphs = 1 + rng.int(5);
		const body = Array.from({ length: paragraphs }, (_, i) =>
			rng.chance(0.5) ? `@${rng.pick(NAMES)}: line ${i}` : `Narration ${i}.`
		).join('\n\n');
		messages.push({ id, role, body });
		if (role === 'player') continue;
		const n = rng.int(cuesPerGm + 1);
		for (let ord = 0; ord < n; ord++) {
			// Some cues point past the last paragraph; the stage places them before the last one.
			const paragraph = rng.int(paragraphs + 2);
			const cue: StageCue = {
				paragraph,
				action: rng.pick(ACTIONS),
				character: rng.pick(NAMES),
				slot: rng.pick(SLOTS),
				expression: rng.pick(['smile', 'sad', undefined]),
				scene: rng.pick(['Gate', 'Hall', 'Road'])
			};
			cues.push({ messageId: id, paragraph, ord, cue });
		}
	}
	return { messages, cues };
}

/** The reference: replay every message from the start. */
function naive(log: Log, messageId: number, paragraph: number, initial: StageState = EMPTY_STAGE): StageState {
	let state = initial;
	const byMessage = (id: number) =>
		log.cues
			.filter((c) => c.messageId === id)
			.sort((a, b) => a.ord - b.ord)
			.map((c) => c.cue);
	for (const m of [...log.messages].sort((a, b) => a.id - b.id)) {
		if (m.id >= messageId) break;
		state = applyCues(state, playOrder(byMessage(m.id))).state;
	}
	const message = log.messages.find((m) => m.id === messageId);
	const paragraphs = parseScript(message?.body ?? '', { final: true });
	const at = stageAt(state, byMessage(messageId), paragraph, { paragraphs: message ? paragraphs : undefined });
	return message?.role === 'gm' ? at : withSpeaker(at, null);
}

describe('StageTimeline', () => {
	it('shows each message with the stage it had', () => {
		const messages: LogMessage[] = [
			{ id: 1, role: 'player', body: 'I knock.' },
			{ id: 2, role: 'gm', body: 'The gate opens.\n\n@Bram(stern): Halt.' },
			{ id: 3, role: 'player', body: 'We are friends.' },
			{ id: 4, role: 'gm', body: 'You step inside.\n\n@Ana: Welcome.' }
		];
		const cues: MessageCue[] = [
			{ messageId: 2, paragraph: 0, ord: 0, cue: { paragraph: 0, action: 'background', scene: 'Gate' } },
			{ messageId: 2, paragraph: 1, ord: 1, cue: { paragraph: 1, action: 'enter', character: 'Bram', slot: 'left' } },
			{ messageId: 4, paragraph: 0, ord: 0, cue: { paragraph: 0, action: 'background', scene: 'Hall' } },
			{ messageId: 4, paragraph: 1, ord: 1, cue: { paragraph: 1, action: 'enter', character: 'Ana', slot: 'right' } }
		];
		const t = new StageTimeline(messages, cues);
		expect(t.at(1, 0)).toEqual(EMPTY_STAGE);
		expect(t.at(2, 0)).toEqual({ background: { scene: 'Gate' }, slots: { left: null, center: null, right: null }, speaker: null });
		expect(t.at(2, 1)).toEqual({
			background: { scene: 'Gate' },
			slots: { left: { character: 'Bram' }, center: null, right: null },
			speaker: 'Bram'
		});
		expect(t.at(3, 0).background).toEqual({ scene: 'Gate' });
		expect(t.at(3, 0).speaker).toBeNull();
		expect(t.at(4, 1).speaker).toBe('Ana');
		expect(t.at(4, 1).background).toEqual({ scene: 'Hall' });
		expect(t.before(4).background).toEqual({ scene: 'Gate' });
		expect(t.after(4).slots.right).toEqual({ character: 'Ana' });
		expect(t.paragraphs(2).map((p) => p.kind)).toEqual(['narration', 'dialogue']);
	});

	it('agrees with a naive fold on random logs, at every paragraph', () => {
		for (const seed of [1, 2, 3, 4, 5]) {
			const rng = seeded(seed);
			const log = randomLog(rng, 120);
			const initial = seed === 5 ? { ...EMPTY_STAGE, background: { scene: 'Start' } } : EMPTY_STAGE;
			const t = new StageTimeline(log.messages, log.cues, { checkpointEvery: 1 + rng.int(8), initial });
			for (const m of log.messages) {
				for (let p = -1; p <= 6; p++)
					expect(t.at(m.id, p), `seed ${seed} message ${m.id} paragraph ${p}`).toEqual(naive(log, m.id, p, initial));
			}
		}
	});

	it('gives the same answers built at once, appended turn by turn, or with older pages added later', () => {
		const rng = seeded(77);
		const log = randomLog(rng, 200);
		const whole = new StageTimeline(log.messages, log.cues, { checkpointEvery: 5 });

		const live = new StageTimeline([], [], { checkpointEvery: 5 });
		for (const m of log.messages)
			live.add(
				[m],
				log.cues.filter((c) => c.messageId === m.id)
			);

		// Newest page first, then older pages, as a backlog that scrolls up loads them.
		const paged = new StageTimeline([], [], { checkpointEvery: 5 });
		for (let end = 200; end > 0; end -= 50) {
			const page = log.messages.filter((m) => m.id > end - 50 && m.id <= end);
			paged.add(
				page,
				log.cues.filter((c) => c.messageId > end - 50 && c.messageId <= end)
			);
		}
		for (const m of log.messages) {
			for (const p of [-1, 0, 2, 9]) {
				const expected = whole.at(m.id, p);
				expect(live.at(m.id, p)).toEqual(expected);
				expect(paged.at(m.id, p)).toEqual(expected);
			}
		}
		expect(paged.size).toBe(200);
	});

	it('a 5,000-message log: each lookup applies fewer cues than one checkpoint interval', () => {
		const rng = seeded(5000);
		const log = randomLog(rng, 5000, 6);
		const t = new StageTimeline(log.messages, log.cues);
		expect(log.cues.length).toBeGreaterThan(5000);
		// Building folds every cue once.
		expect(t.stats.foldApplications).toBe(log.cues.length);
		let worst = 0;
		for (let i = 0; i < 500; i++) {
			const id = 1 + rng.int(5000);
			const before = t.stats.lookupApplications;
			t.at(id, rng.int(6));
			worst = Math.max(worst, t.stats.lookupApplications - before);
		}
		expect(worst).toBeLessThan(DEFAULT_CHECKPOINT_CUES);
		expect(t.stats.lookups).toBe(500);
		// A naive fold of the last message alone would replay (nearly) every cue.
		expect(log.cues.filter((c) => c.messageId < 5000).length).toBeGreaterThan(100 * DEFAULT_CHECKPOINT_CUES);
	});

	it('appending at the end folds only the new cues and the partial interval', () => {
		const rng = seeded(9);
		const log = randomLog(rng, 1000);
		const t = new StageTimeline(
			log.messages.slice(0, 999),
			log.cues.filter((c) => c.messageId < 1000)
		);
		const before = t.stats.foldApplications;
		t.add(
			log.messages.slice(999),
			log.cues.filter((c) => c.messageId === 1000)
		);
		const newCues = log.cues.filter((c) => c.messageId === 1000).length;
		expect(t.stats.foldApplications - before).toBeLessThan(newCues + DEFAULT_CHECKPOINT_CUES);
	});

	it('rejects rows it cannot place and ignores a repeated message', () => {
		const t = new StageTimeline([{ id: 1, role: 'gm', body: 'A.' }]);
		const bad: MessageCue[] = [
			{ messageId: 1, paragraph: -1, ord: 0, cue: { paragraph: -1, action: 'exit', character: 'A' } },
			{ messageId: 1, paragraph: 0.5, ord: 0, cue: { paragraph: 0, action: 'exit', character: 'A' } },
			{ messageId: Number.NaN, paragraph: 0, ord: 0, cue: { paragraph: 0, action: 'exit', character: 'A' } }
		];
		expect(t.add([], bad).rejected).toEqual(bad);
		t.add(
			[{ id: 1, role: 'player', body: 'changed' }],
			[{ messageId: 1, paragraph: 0, ord: 0, cue: { paragraph: 0, action: 'enter', character: 'A', slot: 'left' } }]
		);
		expect(t.paragraphs(1)[0]?.text).toBe('A.');
		expect(t.at(1, 0).slots.left).toEqual({ character: 'A' });
		// An id the log does not have: the stage of the ids before it.
		expect(t.at(99, 0).slots.left).toEqual({ character: 'A' });
		expect(t.paragraphs(99)).toEqual([]);
	});
});
