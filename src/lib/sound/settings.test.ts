import { describe, expect, it } from 'vitest';
import { readStoredSound } from './settings.svelte';

describe('readStoredSound', () => {
	it('defaults to sound on, unmuted, ambience 50 and effects 80', () => {
		expect(readStoredSound(null)).toEqual({ enabled: true, muted: false, ambience: 50, effects: 80 });
		expect(readStoredSound('not json')).toEqual({ enabled: true, muted: false, ambience: 50, effects: 80 });
	});
	it('keeps each readable field and falls back field by field', () => {
		expect(readStoredSound(JSON.stringify({ enabled: false, muted: true, ambience: 20, effects: 100 }))).toEqual({
			enabled: false,
			muted: true,
			ambience: 20,
			effects: 100
		});
		expect(readStoredSound(JSON.stringify({ enabled: 'no', ambience: 400, effects: -1, muted: true }))).toEqual({
			enabled: true,
			muted: true,
			ambience: 50,
			effects: 80
		});
	});
});
