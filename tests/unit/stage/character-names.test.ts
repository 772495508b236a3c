import { describe, it, expect } from 'vitest';
import { checkCharacterName, MAX_CHARACTER_NAME_CHARS } from '../../../src/lib/server/stage/limits';
import { StageError } from '../../../src/lib/server/stage';
import { parseScript } from '../../../src/lib/adv';

describe('character names fit the speaker-tag grammar', () => {
	it('accepts what the tag parser reads as a speaker, and nothing else', () => {
		for (const ok of ['Bram', 'ブラム', 'Sister Ilvane', 'x'.repeat(MAX_CHARACTER_NAME_CHARS)]) {
			const name = checkCharacterName(ok, 'The NPC name');
			const [p] = parseScript(`@${name}: Hello.`, { final: true });
			expect(p, ok).toMatchObject({ kind: 'dialogue', speaker: name });
		}
		for (const bad of ['Bram: the guard', 'Dr. (Evil)', '@mira', 'ブラム：衛兵', 'x'.repeat(MAX_CHARACTER_NAME_CHARS + 1)]) {
			expect(() => checkCharacterName(bad, 'The NPC name'), bad).toThrow(StageError);
		}
	});
});
