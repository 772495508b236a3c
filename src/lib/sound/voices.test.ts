import { describe, expect, it } from 'vitest';
import { voiceOf, voicesFor } from './voices';

const voice = (voiceURI: string, lang: string, isDefault = false) =>
	({ voiceURI, name: voiceURI, lang, default: isDefault, localService: true }) as SpeechSynthesisVoice;

describe('voices', () => {
	const all = [voice('b-en', 'en-GB'), voice('ja', 'ja-JP'), voice('a-en', 'en_US'), voice('z-en', 'en-US', true)];
	it('keeps the story language’s voices (any region), default first, then by name', () => {
		expect(voicesFor(all, 'en').map((v) => v.voiceURI)).toEqual(['z-en', 'a-en', 'b-en']);
		expect(voicesFor(all, 'ja').map((v) => v.voiceURI)).toEqual(['ja']);
		expect(voicesFor(all, 'fr')).toEqual([]);
	});
	it('gives a character the reader’s pick while the browser has it, else the same voice every time by name', () => {
		const en = voicesFor(all, 'en');
		const bram = voiceOf('bram', en, {});
		expect(voiceOf('bram', en, {})).toBe(bram);
		expect(voiceOf('bram', en, { bram: 'b-en' })?.voiceURI).toBe('b-en');
		expect(voiceOf('bram', en, { bram: 'gone' })).toBe(bram);
		expect(voiceOf('bram', [], {})).toBeNull();
		// Several characters spread over the voices there are.
		expect(new Set(['ana', 'bram', 'ilse', 'mira', 'tomas'].map((c) => voiceOf(c, en, {})?.voiceURI)).size).toBeGreaterThan(1);
	});
});
