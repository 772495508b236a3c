import { describe, expect, it } from 'vitest';
import { expressionMood } from './moods';

describe('expressionMood', () => {
	it('reads the GM’s words for a face, in English and Japanese, inflected', () => {
		const cases: [string, string][] = [
			['smiling', 'happy'],
			['grins', 'happy'],
			['笑顔', 'happy'],
			['微笑む', 'happy'],
			['in tears', 'sad'],
			['泣きそう', 'sad'],
			['stern', 'angry'],
			['glaring', 'angry'],
			['怒り', 'angry'],
			['startled', 'surprised'],
			['驚き', 'surprised'],
			['nervous', 'afraid'],
			['怯えた', 'afraid'],
			['puzzled', 'thinking'],
			['考え込む', 'thinking']
		];
		for (const [word, mood] of cases) expect(expressionMood(word), word).toBe(mood);
	});
	it('reads the feeling before the gesture, and an unknown word or none as calm', () => {
		expect(expressionMood('sad smile')).toBe('sad');
		expect(expressionMood('blank')).toBe('neutral');
		expect(expressionMood(undefined)).toBe('neutral');
	});
});
