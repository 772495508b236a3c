import { describe, expect, it } from 'vitest';
import { Story } from '../../../src/lib/play/story.svelte';
import { cue, gm, manualFrames, memoryStorage, player } from './factories';

const GATE = 'Fog over the gate.\n\n@Bram(stern): Halt!\n\n@Ana: Easy.';

function story(
	messages = [player(1, 't1', 'I look around.'), gm(2, 't1', GATE)],
	cues = [
		cue(2, { paragraph: 1, action: 'enter', character: 'Bram', slot: 'left' }),
		cue(2, { paragraph: 2, action: 'enter', character: 'Ana', slot: 'right' }, 1)
	]
) {
	return new Story({ sessionId: 's', messages, cues, warn: () => undefined });
}

describe('Story (text window and stage)', () => {
	it('opens on the last exchange: the player line first, then each paragraph with the stage it had', () => {
		const s = story();
		s.configure(0, false);
		expect(s.current).toMatchObject({ kind: 'player', text: 'I look around.' });
		s.click();
		expect(s.current).toMatchObject({ kind: 'narration', text: 'Fog over the gate.' });
		expect(s.stage.slots.left).toBeNull();
		s.click();
		expect(s.current).toMatchObject({ kind: 'dialogue', speaker: 'Bram', expression: 'stern', text: 'Halt!' });
		expect(s.stage.slots.left?.character).toBe('Bram');
		expect(s.lights).toEqual({ left: 'lit', center: 'empty', right: 'empty' });
		s.click();
		expect(s.lights).toEqual({ left: 'dim', center: 'empty', right: 'lit' });
		// At the end a click changes nothing.
		const before = s.state;
		s.click();
		expect(s.state).toBe(before);
	});

	it('streams a reply without ever showing a raw tag, and keeps the stage until the commit plays the cues', () => {
		const s = story();
		s.configure(0, false);
		s.beginTurn('t2', 'I wait.');
		const seen: string[] = [];
		const reply = 'The wind rises.\n\n@Bram(worried): Someone comes.';
		for (const ch of reply) {
			s.appendDelta('t2', ch);
			while (s.hasNext && s.complete) s.click();
			seen.push(s.visible);
			expect(s.visible).not.toMatch(/@|\(worried\)/);
		}
		expect(seen.at(-1)).toBe('Someone comes.');
		// Streaming: the stage after the last committed message, with the streaming speaker lit.
		expect(s.stage.slots.right?.character).toBe('Ana');
		expect(s.lights.left).toBe('lit');
		s.commit('t2', reply, [player(3, 't2', 'I wait.'), gm(4, 't2', reply)], [cue(4, { paragraph: 1, action: 'exit', character: 'Ana' })]);
		expect(s.current).toMatchObject({ speaker: 'Bram', text: 'Someone comes.' });
		expect(s.stage.slots.right).toBeNull();
	});

	it('skips a paragraph that is only a tag once the reply is whole, but waits on one still streaming', () => {
		const s = story([player(1, 't1', 'I look around.'), gm(2, 't1', 'A.\n\n@Bram:\n\nB.')], []);
		s.configure(0, false);
		s.click();
		expect(s.current).toMatchObject({ text: 'A.' });
		s.click();
		expect(s.current).toMatchObject({ text: 'B.' });
		expect(s.hasNext).toBe(false);
		s.beginTurn('t2', 'I wait.');
		s.appendDelta('t2', 'C.\n\n@Ana:');
		while (s.hasNext && s.complete) s.click();
		expect(s.current).toMatchObject({ speaker: 'Ana', text: '', partial: true });
	});

	it("shows the player's long line whole at once and goes on to the reply as it streams, with no click", () => {
		const frames = manualFrames();
		const s = story();
		s.attach(null, frames);
		s.configure(20, false);
		const line = 'I draw my sabre, step between Sefa and the door, and tell the man in grey that he can leave now or be carried out. '
			.repeat(3)
			.trim();
		expect(line.length).toBeGreaterThan(270);
		s.beginTurn('t2', line);
		// At reading speed the player's line would take 14 s; it is shown whole, and complete.
		expect(s.current).toMatchObject({ kind: 'player' });
		expect(s.visible).toBe(line);
		expect(s.complete).toBe(true);
		// The GM's first paragraph arrives, still streaming: the window is on it at once and reveals it.
		s.appendDelta('t2', 'The man in grey');
		expect(s.current).toMatchObject({ kind: 'narration', partial: true });
		frames.run(0);
		frames.run(200);
		expect(s.visible).toBe('The ');
		frames.run(10_000);
		expect(s.visible).toBe('The man in grey');
	});

	it('a failed turn shows only the player line and leaves the stage as it was', () => {
		const s = story();
		s.configure(0, false);
		s.skipRead();
		while (s.hasNext) s.click();
		const stageBefore = s.stage.slots;
		expect(stageBefore.right?.character).toBe('Ana');
		s.beginTurn('t2', 'I run.');
		s.appendDelta('t2', 'You start to');
		s.end('t2', 'failed');
		expect(s.lines.map((l) => l.kind)).toEqual(['player']);
		expect(s.stage.slots).toEqual(stageBefore);
		// A late delta of the failed turn is not shown.
		s.appendDelta('t2', ' run');
		expect(s.lines).toHaveLength(1);
	});

	/** Clicks through what is on screen (a function: the loop's condition is read afresh after the calls before it). */
	const readToEnd = (x: ReturnType<typeof story>) => {
		while (x.hasNext) x.click();
	};

	it('takes back what a withdrawn reply showed, and shows the rewrite that streams after it (issue 27)', () => {
		const s = story();
		s.configure(0, false);
		s.skipRead();
		while (s.hasNext) s.click();
		s.beginTurn('t2', 'I ask.');
		s.appendDelta('t2', 'Haig pats his coat. The ');
		s.withdraw('t2', '');
		expect(s.lines.map((l) => l.kind)).toEqual(['player']);
		s.appendDelta('t2', 'Haig says nothing.');
		readToEnd(s);
		expect(s.lines.map((l) => l.text).join(' ')).not.toContain('pats');
		expect(s.lines.map((l) => l.text).join(' ')).toContain('Haig says nothing.');
		// Another turn's withdrawal changes nothing here.
		s.withdraw('t9', '');
		expect(s.lines.map((l) => l.text).join(' ')).toContain('Haig says nothing.');
	});

	it(
		'shows the paragraph on screen whole at load, then reveals at the set speed on the frame clock; a ' +
			'click completes; only completed paragraphs are announced',
		() => {
			const frames = manualFrames();
			const s = new Story({
				sessionId: 's',
				messages: [gm(1, 't1', 'Loaded.\n\nabcdefghij\n\nklm')],
				cues: [],
				frames,
				warn: () => undefined
			});
			// What the server rendered: the first paragraph, whole.
			expect(s.visible).toBe('Loaded.');
			s.configure(10, false);
			s.click();
			expect(s.visible).toBe('');
			frames.run(0);
			frames.run(300);
			expect(s.visible).toBe('abc');
			expect(s.announcement).toBe('Loaded.');
			s.click();
			expect(s.visible).toBe('abcdefghij');
			expect(s.announcement).toBe('abcdefghij');
			s.click();
			expect(s.visible).toBe('');
			frames.run(0);
			frames.run(1000);
			expect(s.visible).toBe('klm');
			expect(s.announcement).toBe('klm');
			// Nothing left to reveal: the clock stops asking for frames.
			expect(frames.pending()).toBe(0);
		}
	);

	it('remembers read paragraphs and where the reader was, per session: the next visit opens there, and Skip goes by read text', () => {
		const storage = memoryStorage();
		const first = story();
		first.attach(storage, null);
		first.configure(0, false);
		first.click();
		first.click();
		expect(JSON.parse(storage.data.get('kantera.read.s') ?? '[]')).toEqual(['t1:in', 't1:0', 't1:1']);
		expect(storage.data.get('kantera.at.s')).toBe('t1:1');
		const again = story();
		again.attach(storage, null);
		again.configure(0, false);
		// Where the reader was, shown whole (it was read); nothing was skipped on the way in.
		expect([again.current?.key, again.complete]).toEqual(['t1:1', true]);
		// Skip: the next paragraph was never read, so it stops there, from its start.
		expect(again.skipStep()).toBe(true);
		expect(again.current?.key).toBe('t1:2');
		expect(again.skipStep()).toBe(false);
		expect(again.current?.key).toBe('t1:2');

		// Another visit after the reader was elsewhere (an undo brought this exchange back): from its
		// first line, and Skip races over what was read to the first line not read.
		storage.data.set('kantera.at.s', 't9:0');
		const back = story();
		back.attach(storage, null);
		back.configure(0, false);
		expect(back.current?.key).toBe('t1:in');
		expect(back.canSkip).toBe(true);
		while (back.skipStep());
		expect(back.current?.key).toBe('t1:2');
	});

	it('logs cues the stage cannot play and keeps going', () => {
		const warnings: string[] = [];
		const s = new Story({ sessionId: 's', messages: [], cues: [], warn: (m) => warnings.push(m), knownCharacters: () => ['Bram'] });
		s.commit(
			't1',
			'x',
			[gm(1, 't1', 'x')],
			[
				cue(1, { paragraph: 0, action: 'enter', character: 'Ghost', slot: 'left' }),
				cue(1, { paragraph: 0, action: 'exit', character: 'Nobody' }, 1)
			]
		);
		expect(warnings.join('\n')).toMatch(/unknown_character[\s\S]*not_on_stage/);
		expect(s.stage.slots.left?.character).toBe('Ghost');
	});
});
