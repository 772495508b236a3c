/** Reading settings kept in the browser: the same entry and shape as the page's, defensive on bad values. */
import { describe, expect, it } from 'vitest';
import { LocalReader, setAutoDelay, type ReaderControls } from '../../../src/lib/components/panels/reader.svelte';

function memoryStorage(initial: Record<string, string> = {}) {
	const map = new Map(Object.entries(initial));
	return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), map };
}

describe('LocalReader', () => {
	it('reads and writes kantera.reader as {speed, auto, autoDelayMs}', () => {
		const storage = memoryStorage({ 'kantera.reader': JSON.stringify({ speed: 'fast', auto: true, autoDelayMs: 3000 }) });
		const reader = new LocalReader(storage);
		expect([reader.speed, reader.auto, reader.autoDelayMs]).toEqual(['fast', true, 3000]);
		reader.setSpeed('instant');
		setAutoDelay(reader, 2500);
		expect(JSON.parse(storage.map.get('kantera.reader') ?? '')).toEqual({ speed: 'instant', auto: true, autoDelayMs: 2500 });
	});

	it('falls back to defaults on a hand-edited value and survives a storage that throws', () => {
		const reader = new LocalReader(memoryStorage({ 'kantera.reader': '{"speed":"warp","autoDelayMs":-1}' }));
		expect([reader.speed, reader.autoDelayMs]).toEqual(['normal', 1500]);
		const throwing = { getItem: () => 'not json', setItem: () => { throw new Error('quota'); } };
		const r = new LocalReader(throwing);
		expect(() => r.setAuto(true)).not.toThrow();
		expect(r.auto).toBe(true);
	});

	it('saves the delay through setAuto when the owner has no setAutoDelay', () => {
		const saved: number[] = [];
		const owner: ReaderControls = { speed: 'normal', auto: false, autoDelayMs: 1500, setSpeed: () => undefined, setAuto() { saved.push(this.autoDelayMs); } };
		setAutoDelay(owner, 4000);
		expect(owner.autoDelayMs).toBe(4000);
		expect(saved).toEqual([4000]);
	});
});
