import { describe, expect, it } from 'vitest';
import { diffContent, sectionsOf } from './diff';

const base = {
	title: 'Salt Roads',
	documents: { setting: { title: 'Setting', body: 'Intro.\n\n## Ports\n\nThree ports.\n\n## Vault\n\nA vault.' } },
	npcs: [
		{ name: 'Mira', role: 'guide', personality: 'Warm.' },
		{ name: 'Oren', role: 'smith', personality: 'Gruff.' }
	],
	secrets: [{ key: 'vault-word', title: 'The word', body: 'Salt.' }],
	tags: ['desert']
};

describe('diffContent', () => {
	it('says nothing changed between equal contents', () => {
		expect(diffContent(base, structuredClone(base))).toEqual([]);
	});

	it('matches NPCs by name, not position, and names the field that changed', () => {
		const after = structuredClone(base);
		after.npcs = [
			{ name: 'Oren', role: 'smith', personality: 'Gruff but fair.' },
			{ name: 'Sela', role: 'thief', personality: 'Quick.' }
		];
		const changes = diffContent(base, after);
		expect(changes.map((c) => [c.path, c.change])).toEqual([
			['npcs[Mira]', 'removed'],
			['npcs[Oren].personality', 'changed'],
			['npcs[Sela]', 'added']
		]);
		expect(changes[1]).toMatchObject({ before: 'Gruff.', after: 'Gruff but fair.' });
	});

	it('compares a document by its sections', () => {
		const after = structuredClone(base);
		after.documents.setting.body = 'Intro.\n\n## Ports\n\nFour ports.\n\n## Markets\n\nSpice.';
		expect(diffContent(base, after).map((c) => [c.path, c.change])).toEqual([
			['documents.setting.body § Ports', 'changed'],
			['documents.setting.body § Vault', 'removed'],
			['documents.setting.body § Markets', 'added']
		]);
	});

	it('reports top-level fields, secrets by key, and lists compared whole', () => {
		const after = { ...structuredClone(base), title: 'Salt Roads II', tags: ['desert', 'caravans'], notes: 'new' };
		after.secrets = [{ key: 'vault-word', title: 'The word', body: 'Ash.' }];
		expect(diffContent(base, after).map((c) => [c.path, c.change])).toEqual([
			['title', 'changed'],
			['secrets[vault-word].body', 'changed'],
			['tags', 'changed'],
			['notes', 'added']
		]);
	});

	it('cuts long values to an excerpt', () => {
		const after = { ...base, title: 'x'.repeat(1000) };
		const [change] = diffContent(base, after);
		expect(change?.after?.length).toBeLessThanOrEqual(280);
	});

	it('splits Markdown into sections by heading', () => {
		expect([...sectionsOf('a\n# One\nb\n## Two ##\nc').entries()]).toEqual([
			['', 'a'],
			['One', 'b'],
			['Two', 'c']
		]);
	});
});
