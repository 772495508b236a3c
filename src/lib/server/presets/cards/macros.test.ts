import { describe, expect, it } from 'vitest';
import { resolveMacros } from './macros';

const en = { language: 'en', char: 'Mira' } as const;

describe('resolveMacros for the player, in English', () => {
	it('makes the verb of a third-person {{user}} agree with "you" where "you" is the subject', () => {
		expect(resolveMacros('{{user}} washes up on Calloway Rock.', 'player', en)).toBe('You wash up on Calloway Rock.');
		expect(resolveMacros('When {{user}} walks in, {{user}} carries a lamp.', 'player', en)).toBe('When you walk in, you carry a lamp.');
		expect(resolveMacros('{{user}} is lost. {{user}} goes home.', 'player', en)).toBe('You are lost. You go home.');
	});

	it('leaves "you" as an object, and verbs that end in -ss or -us, alone', () => {
		expect(resolveMacros('Mira tells {{user}} stories.', 'player', en)).toBe('Mira tells you stories.');
		expect(resolveMacros('{{user}} pass the gate; {{user}} focus.', 'player', en)).toBe('You pass the gate; you focus.');
	});
});
