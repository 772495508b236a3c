import { describe, expect, it } from 'vitest';
import { readStoredSound } from './settings.svelte';

describe('readStoredSound', () => {
	const DEFAULTS = { enabled: true, muted: false, music: 60, ambience: 50, effects: 80, voice: 80, voices: false, picks: {} };
	it('defaults to sound on, unmuted, music 60, ambience 50, effects 80, voice 80, voices off', () => {
		expect(readStoredSound(null)).toEqual(DEFAULTS);
		expect(readStoredSound('not json')).toEqual(DEFAULTS);
	});
	it('keeps each readable field and falls back field by field', () => {
		const mine = {
			enabled: false,
			muted: true,
			music: 10,
			ambience: 20,
			effects: 100,
			voice: 35,
			voices: true,
			picks: { mira: 'urn:voice:a' }
		};
		expect(readStoredSound(JSON.stringify(mine))).toEqual(mine);
		expect(readStoredSound(JSON.stringify({ enabled: 'no', ambience: 400, effects: -1, muted: true, voices: 'yes', picks: [1] }))).toEqual({
			...DEFAULTS,
			muted: true
		});
	});
});
