/**
 * "Preview as a player": the author's own preset as a stranger sees it, built by the same code, with
 * nothing GM-only in it (document bodies, personalities, GM behaviour, plot, secrets, the opening
 * situation, the author's notes), for a private preset too; nobody else can ask for it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../helpers/env';
import { createUser, type AuthUser } from '../../../src/lib/server/auth';
import { createFromInput, presetView, previewAsPlayer, PresetError, setVisibility } from '../../../src/lib/server/presets';
import { presetInput, SETTING_MARKER } from '../presets/factory';

const GM_ONLY = {
	personality: 'SECRETLY-A-DRAGON-41',
	gmBehaviour: 'RUN-IT-GRIM-77',
	plot: 'THE-PLOT-TWIST-12',
	secret: 'THE-SECRET-BODY-93',
	situation: 'OPEN-IN-THE-DARK-55',
	notes: 'AUTHOR-ONLY-NOTE-08'
};

describe('preview as a player', () => {
	let env: TestEnv;
	let author: AuthUser;
	let stranger: AuthUser;

	beforeAll(async () => {
		env = await testEnv();
		author = await createUser(env.app, { name: 'author', password: 'correct horse battery' }, { viaOperator: true });
		stranger = await createUser(env.app, { name: 'stranger', password: 'correct horse battery' }, { viaOperator: true });
	}, 60_000);
	afterAll(async () => {
		await env.cleanup();
	});

	function gmHeavyInput() {
		const input = presetInput({ title: 'Glass Harbour' });
		const [npc] = input.npcs;
		if (!npc) throw new Error('the factory preset has no NPC');
		npc.personality = `${npc.personality} ${GM_ONLY.personality}`;
		input.gmBehaviour = `${input.gmBehaviour} ${GM_ONLY.gmBehaviour}`;
		input.plot = { ...input.plot, body: `${input.plot.body} ${GM_ONLY.plot}` };
		input.secrets = input.secrets.map((s) => ({ ...s, body: `${s.body} ${GM_ONLY.secret}` }));
		input.opening = { ...input.opening, situation: `${input.opening.situation} ${GM_ONLY.situation}` };
		return { ...input, notes: GM_ONLY.notes, tags: ['harbour'] };
	}

	it('is what a stranger is given, and holds nothing GM-only', async () => {
		const row = await setVisibility(env.app.control.db, await createFromInput(env.app, author, gmHeavyInput()), 'public', {
			publishPerDay: 0
		});
		const preview = await previewAsPlayer(env.app, author, row.id);
		const strangers = await presetView(env.app, row.id, stranger);
		expect(preview).toEqual(strangers);
		const text = JSON.stringify(preview);
		for (const marker of [...Object.values(GM_ONLY), SETTING_MARKER]) expect(text).not.toContain(marker);
		expect(preview).not.toHaveProperty('content');
		expect(preview).not.toHaveProperty('draft');
		expect(preview).toMatchObject({ title: 'Glass Harbour', tags: ['harbour'] });
		// The author's own view does hold them: the preview is not the same thing with another name.
		expect(JSON.stringify(await presetView(env.app, row.id, author))).toContain(GM_ONLY.personality);
	});

	it('works for a private preset, for its author only', async () => {
		const row = await createFromInput(env.app, author, gmHeavyInput());
		const preview = await previewAsPlayer(env.app, author, row.id);
		expect(JSON.stringify(preview)).not.toContain(GM_ONLY.personality);
		const refused = await previewAsPlayer(env.app, stranger, row.id).catch((e: unknown) => e);
		expect(refused instanceof PresetError && refused.code).toBe('not_found');
	});
});
