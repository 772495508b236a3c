import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../src/lib/types/settings';
import * as v from 'valibot';
import {
	findLeaks,
	getWorld,
	listWorlds,
	WORLD_IDS,
	WorldError,
	WorldPresetSchema,
	type WorldPreset
} from '../../../src/lib/server/worlds';

const ALL = WORLD_IDS.flatMap((id) => LANGUAGES.map((language) => ({ id, language })));
const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;

/** A deep copy of a shipped world to break in one place. */
function copyOf(world: WorldPreset): WorldPreset {
	return structuredClone(world);
}

function issues(input: unknown): string[] {
	const result = v.safeParse(WorldPresetSchema, input);
	return result.success ? [] : result.issues.map((i) => i.message);
}

describe('the shipped worlds', () => {
	it.each(ALL)('$id ($language) validates, keeps its secrets out of player-visible fields and has a full cast', ({ id, language }) => {
		const world = getWorld(id, language);
		expect(issues(world)).toEqual([]);
		expect(world.id).toBe(id);
		expect(world.language).toBe(language);
		expect(findLeaks(world)).toEqual([]);
		expect(world.npcs.length).toBeGreaterThanOrEqual(3);
		expect(world.npcs.length).toBeLessThanOrEqual(5);
		for (const secret of world.secrets) expect(secret.markers.length).toBeGreaterThan(0);
		expect(world.opening.present.length).toBeGreaterThan(0);
	});

	it.each(ALL)('$id ($language) is written in its own language', ({ id, language }) => {
		const world = getWorld(id, language);
		const texts = [world.title, world.documents.setting.body, world.gmBehaviour, ...world.npcs.map((n) => n.appearance)];
		for (const text of texts) expect(JAPANESE.test(text)).toBe(language === 'ja');
	});

	it('the two languages of a world have the same cast size, secret keys and setting outline', () => {
		for (const id of WORLD_IDS) {
			const ja = getWorld(id, 'ja');
			const en = getWorld(id, 'en');
			expect(ja.npcs.length).toBe(en.npcs.length);
			expect(ja.secrets.map((s) => s.key)).toEqual(en.secrets.map((s) => s.key));
			const headingLevels = (md: string) =>
				md
					.split('\n')
					.filter((l) => /^#{2,6} /.test(l))
					.map((l) => l.indexOf(' '));
			expect(headingLevels(ja.documents.setting.body)).toEqual(headingLevels(en.documents.setting.body));
		}
	});

	it('the robot war chronicle says what technology exists, and lists what does not in its canon (issue 27)', () => {
		const en = getWorld('iron-walkers', 'en');
		expect(en.documents.setting.body).toMatch(/^### What exists$/m);
		expect(en.documents.setting.body).toMatch(/^### What does not exist$/m);
		const absentEn = en.anachronisms.flatMap((a) => a.terms);
		for (const absent of ['transistor', 'computer', 'jet engine', 'nuclear', 'smartphone', 'internet', 'special forces', 'voice radio']) {
			expect(absentEn).toContain(absent);
		}
		const ja = getWorld('iron-walkers', 'ja');
		expect(ja.documents.setting.body).toMatch(/^### あるもの$/m);
		const absentJa = ja.anachronisms.flatMap((a) => a.terms);
		for (const absent of [
			'トランジスタ',
			'コンピュータ',
			'ジェットエンジン',
			'核兵器',
			'スマートフォン',
			'インターネット',
			'特殊部隊',
			'音声無線'
		]) {
			expect(absentJa).toContain(absent);
		}
	});

	it('lists both worlds for a picker in the asked language', () => {
		for (const language of LANGUAGES) {
			const worlds = listWorlds(language);
			expect(worlds.map((w) => w.id)).toEqual(['sword-and-sorcery', 'iron-walkers']);
			for (const w of worlds) {
				expect(Object.keys(w).sort()).toEqual(['id', 'tagline', 'title']);
				expect(JAPANESE.test(w.title + w.tagline)).toBe(language === 'ja');
			}
		}
	});

	it('refuses an unknown world', () => {
		expect(() => getWorld('space-opera', 'en')).toThrow(WorldError);
	});
});

describe('WorldPresetSchema', () => {
	const base = () => copyOf(getWorld('sword-and-sorcery', 'en'));

	it('refuses an opening with an NPC the world does not have', () => {
		const world = base();
		world.opening.present = ['Nobody'];
		expect(issues(world)).toContain('The opening names an NPC the world does not have.');
	});

	it('refuses a secret marker that turns up in an NPC appearance, and findLeaks says where', () => {
		const world = base();
		const npc = world.npcs[1];
		if (!npc) throw new Error('fixture has no second NPC');
		npc.appearance += ' She wears a pendant of the Mirrored Fleet.';
		expect(findLeaks(world)).toEqual([{ field: 'npcs[1].appearance', secret: 'corso-sells-the-ward-salt', marker: 'Mirrored Fleet' }]);
		expect(issues(world)).toContain('A secret marker appears in a player-visible field; run findLeaks for where.');
	});

	it('refuses NPC names the speaker tag cannot carry, duplicate names and a setting without sections', () => {
		const world = base();
		const [first, second] = world.npcs;
		if (!first || !second) throw new Error('fixture has too few NPCs');
		first.name = 'Mirela (cook)';
		expect(issues(world)).toContain('An NPC name cannot hold @ : ( ) (the speaker tag uses them).');
		first.name = second.name;
		expect(issues(world)).toContain('Two NPCs share a name.');

		const flat = base();
		flat.documents.setting.body = 'One long paragraph and no headings at all.';
		expect(issues(flat).some((m) => m.includes('markdown headings'))).toBe(true);
	});

	it('refuses an appearance longer than an image prompt takes and a non-object opening state', () => {
		const world = base();
		const npc = world.npcs[0];
		if (!npc) throw new Error('fixture has no NPC');
		npc.appearance = 'tall '.repeat(300);
		expect(issues(world).some((m) => m.includes('longer than'))).toBe(true);
		expect(issues({ ...base(), opening: { ...base().opening, state: ['not', 'an', 'object'] } })).toContain(
			'The opening state must be a JSON object.'
		);
	});
});
