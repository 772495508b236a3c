/** A preset's content rules: the world schema's limits, every problem on its field, leaks on the field that holds the marker. */
import { describe, expect, it } from 'vitest';
import { checkContent, MAX_PRESET_BYTES } from '../../../src/lib/server/presets';
import { emptyForm, formFromContent, formToInput } from '../../../src/lib/presets/form';
import { presetInput, type PresetContent } from './factory';

const ID = 'abcdefghijklmnopqrst';

function issuesOf(input: unknown) {
	const result = checkContent(input, ID);
	if (result.ok) throw new Error('expected problems');
	return result.issues;
}

function edited(change: (p: PresetContent) => void): PresetContent {
	const p = presetInput();
	change(p);
	return p;
}

describe('checkContent', () => {
	it('accepts a complete preset and gives it the id', () => {
		const result = checkContent(presetInput(), ID);
		expect(result.ok).toBe(true);
		if (result.ok) expect(result.preset.id).toBe(ID);
	});

	it('reports every problem at once, each on its field, with a code a page translates', () => {
		const issues = issuesOf(
			edited((p) => {
				p.title = '  ';
				p.tagline = 'x'.repeat(201);
				const [first] = p.npcs;
				if (first) first.name = 'Bram: the guard';
				const [secret] = p.secrets;
				if (secret) secret.key = 'Not A Key';
			})
		);
		expect(issues).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ path: 'title', code: 'empty' }),
				expect.objectContaining({ path: 'tagline', code: 'tooLong', params: { max: 200 } }),
				expect.objectContaining({ path: 'npcs.0.name', code: 'npcNameTag' }),
				expect.objectContaining({ path: 'secrets.0.key', code: 'secretKey' })
			])
		);
	});

	it('checks cross-field rules even while other fields are wrong (duplicates, the opening cast, setting headings)', () => {
		const issues = issuesOf(
			edited((p) => {
				p.title = '';
				const [first] = p.npcs;
				if (first) p.npcs.push({ ...first });
				p.opening.present = ['Nobody Here'];
				p.documents.setting.body = '# Only one heading\n\nText.';
			})
		);
		const byPath = Object.fromEntries(issues.map((i) => [i.path, i.code]));
		expect(byPath).toMatchObject({
			title: 'empty',
			npcs: 'duplicateNpc',
			'opening.present': 'presentUnknown',
			'documents.setting.body': 'headings'
		});
	});

	it('reports a leak on the field holding the marker, naming the marker and the secret', () => {
		const issues = issuesOf(
			edited((p) => {
				const [secret] = p.secrets;
				const second = p.npcs[1];
				if (!secret || !second) throw new Error('the factory preset has two NPCs and a secret');
				secret.markers = ['crimson ledger'];
				second.appearance = `${second.appearance} Carries a crimson ledger.`;
			})
		);
		expect(issues).toEqual([
			expect.objectContaining({ path: 'npcs.1.appearance', code: 'leak', params: expect.objectContaining({ marker: 'crimson ledger' }) })
		]);
	});

	it('refuses an opening state that is not a JSON object, and more NPCs on stage than slots', () => {
		const form = formFromContent(presetInput());
		form.opening.state = '{ not json';
		for (const npc of form.npcs) npc.present = true;
		const issues = issuesOf(formToInput(form));
		const codes = issues.map((i) => `${i.path}:${i.code}`);
		expect(codes).toContain('opening.state:stateObject');
		expect(codes).toContain('opening.present:onStageTooMany');
	});

	it('refuses control characters in any text, the opening state included, on the field that holds one', () => {
		const issues = issuesOf(
			edited((p) => {
				p.title = 'Harbour\u0000 of lanterns';
				p.documents.setting.body = `${p.documents.setting.body}\u001b[2J`;
				const [first] = p.npcs;
				if (first) first.personality = 'Gruff\u007f';
				p.opening.state = { 'note\u0000': 'fine', inventory: ['rope', 'lamp\u0085'] };
			})
		);
		const byPath = Object.fromEntries(issues.map((i) => [i.path, i.code]));
		expect(byPath).toMatchObject({
			title: 'controlCharacter',
			'documents.setting.body': 'controlCharacter',
			'npcs.0.personality': 'controlCharacter',
			'opening.state': 'controlCharacter'
		});
		// Tabs and line breaks are text, not control characters.
		expect(
			checkContent(
				edited((p) => (p.documents.pc.body = `${p.documents.pc.body}\r\n\tIndented.`)),
				ID
			).ok
		).toBe(true);
	});

	it('refuses a preset larger than the whole-preset limit, however its fields are split', () => {
		const big = edited((p) => {
			for (const doc of [p.documents.premise, p.documents.setting, p.documents.pc]) doc.body += `\n\n## More\n\n${'あ'.repeat(60_000)}`;
		});
		expect(issuesOf(big)).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ path: '', code: 'tooLarge', params: expect.objectContaining({ max: MAX_PRESET_BYTES }) })
			])
		);
	});

	it('an empty form says what is missing rather than failing on its shape', () => {
		const issues = issuesOf(formToInput(emptyForm('ja')));
		expect(issues.map((i) => i.path)).toEqual(
			expect.arrayContaining(['title', 'tagline', 'documents.premise.body', 'npcs.0.name', 'opening.scene.name'])
		);
		expect(issues.every((i) => i.code !== 'other')).toBe(true);
		// A secret row left blank is no secret: a world may have none (a companion card has no hidden truth).
		expect(issues.filter((i) => i.path.startsWith('secrets'))).toEqual([]);
	});
});
