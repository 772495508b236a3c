import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../helpers/env';
import { createUser } from '../../../src/lib/server/auth';
import { startSession } from '../../../src/lib/server/sessions';
import { prologueSource } from '../../../src/lib/server/sessions/start';
import { composePrologue, prologueText, stageBefore, titleCard, PROLOGUE_TURN_ID } from '../../../src/lib/server/stage';
import { loadPlayView } from '../../../src/lib/server/play';
import { log } from '../../../src/lib/server/records';
import { getWorld, WORLD_IDS } from '../../../src/lib/server/worlds';
import { LANGUAGES } from '../../../src/lib/types/settings';
import { parseScript } from '../../../src/lib/adv';
import { lastExchange } from '../../../src/lib/play/story.svelte';

let env: TestEnv | undefined;
beforeAll(async () => {
	env = await testEnv();
});
afterAll(async () => {
	await env?.cleanup();
});

const ALL = WORLD_IDS.flatMap((id) => LANGUAGES.map((language) => ({ id, language })));

describe('the prologue a world opens with', () => {
	it.each(ALL)(
		'tells the premise, then the opening scene, then brings each present character on stage as they are introduced ($id, $language)',
		({ id, language }) => {
			const world = getWorld(id, language);
			const { body, cues } = composePrologue(prologueSource(world));
			const paragraphs = parseScript(body, { final: true });
			// Plain narration: no speaker, never a raw tag or Markdown mark.
			expect(paragraphs.every((p) => p.kind === 'narration' && p.text !== '')).toBe(true);
			expect(body).not.toMatch(/^#|\*\*|^@/m);
			const premise = world.documents.premise.body.split(/\n\s*\n/);
			expect(paragraphs[0]?.text).toBe(premise[0]?.trim());
			const scene = premise.length;
			expect(paragraphs[scene]?.text).toContain(world.opening.scene.name);
			expect(cues[0]).toEqual({ paragraph: scene, action: 'background', scene: world.opening.scene.name });
			const entrances = cues.slice(1);
			expect(entrances.map((c) => c.character)).toEqual(world.opening.present);
			expect(entrances.map((c) => c.slot)).toEqual(world.opening.present.length === 2 ? ['left', 'right'] : expect.any(Array));
			for (const c of entrances) {
				const role = world.npcs.find((n) => n.name === c.character)?.role ?? '<none>';
				expect(paragraphs[c.paragraph]?.text).toContain(role);
			}
			// Only player-visible fields: nothing of the GM notes, the plot or the secrets.
			expect(body).not.toContain(world.opening.situation.slice(0, 40));
			for (const npc of world.npcs) expect(body).not.toContain(npc.personality.slice(0, 40));
			for (const secret of world.secrets)
				for (const marker of secret.markers) expect(body.toLowerCase()).not.toContain(marker.toLowerCase());
		}
	);

	it('ends with the author’s opening narration (a card’s greeting), its lines of speech kept, even when the documents are sealed', () => {
		const world = getWorld('sword-and-sorcery', 'en');
		const narration = 'Rain on the glass. *The door opens.*\n\n@Ysolde: "Easy now."';
		const { body } = composePrologue(prologueSource({ ...world, opening: { ...world.opening, narration } }, { sealed: true }));
		const paragraphs = parseScript(body, { final: true });
		expect(paragraphs.slice(-2)).toEqual([
			expect.objectContaining({ kind: 'narration', text: 'Rain on the glass. The door opens.' }),
			expect.objectContaining({ kind: 'dialogue', speaker: 'Ysolde', text: '"Easy now."' })
		]);
	});

	it('keeps Markdown out of the narration and never lets a premise line read as a speaker tag', () => {
		const { body } = composePrologue({
			language: 'en',
			title: 'T',
			tagline: 't',
			premise: '# The Harbour\n\nYou are **Tarn**, a _sellsword_.\n\n@Nobody: not a tag',
			scene: { name: 'Quay', description: 'Wet stones.' },
			present: [{ name: 'Ana', role: 'A courier' }]
		});
		expect(parseScript(body, { final: true }).map((p) => [p.kind, p.text])).toEqual([
			['narration', 'The Harbour'],
			['narration', 'You are Tarn, a sellsword.'],
			['narration', 'Nobody: not a tag'],
			['narration', 'Quay. Wet stones.'],
			['narration', 'Ana — A courier.']
		]);
	});

	it('is written when a session starts from a world, with no LLM configured, and the screen opens on it with the title card', async () => {
		if (!env) throw new Error('test env not ready');
		expect(env.app.config.llm.configured).toBe(false);
		const user = await createUser(env.app, { name: `prologue${Date.now()}`, password: 'a long password' });
		const { session } = await startSession(env.app, { ownerId: user.id, title: 'Salt', language: 'ja', worldId: 'sword-and-sorcery' });
		const world = getWorld('sword-and-sorcery', 'ja');
		await env.app.sessions.use(session.id, async (s) => {
			const messages = await log.list(s.db, { limit: 10 });
			expect(messages).toHaveLength(1);
			expect(messages[0]).toMatchObject({ role: 'gm', turnId: PROLOGUE_TURN_ID });
			expect(await titleCard(s.db)).toEqual({ title: world.title, tagline: world.tagline, scene: world.opening.scene.name });
			// After the prologue the present characters stand on stage: the first turn starts from there.
			const after = await stageBefore(s.db, undefined);
			expect([after.slots.left?.character, after.slots.center, after.slots.right?.character]).toEqual(['ミレラ', null, 'セファ']);
			expect(after.background).toEqual({ scene: world.opening.scene.name });
			const view = await loadPlayView(s.db, session.id, { id: 'viewer', language: 'en' });
			expect(view.titleCard?.title).toBe(world.title);
			expect(lastExchange(view.log.messages)).toMatchObject({ turnId: PROLOGUE_TURN_ID, input: null, final: true });
			expect(view.log.cues.map((c) => c.cue.action)).toEqual(['background', 'enter', 'enter']);
			expect(await prologueText(s.db)).toContain('ミレラ');
		});
	});

	it('is not written for an empty world', async () => {
		if (!env) throw new Error('test env not ready');
		const user = await createUser(env.app, { name: `noworld${Date.now()}`, password: 'a long password' });
		const { session } = await startSession(env.app, { ownerId: user.id, title: 'Bare', language: 'en' });
		await env.app.sessions.use(session.id, async (s) => {
			expect(await log.count(s.db)).toBe(0);
			expect(await titleCard(s.db)).toBeNull();
		});
	});
});
