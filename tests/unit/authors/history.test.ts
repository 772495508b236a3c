/**
 * A preset's version history on a real control database: listed with note and author, one version
 * read with what changed since the one before, restored as a new version (history kept), and for
 * anyone but the author none of it exists (404), whatever the preset's visibility.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../helpers/env';
import { createUser, type AuthUser } from '../../../src/lib/server/auth';
import {
	createFromInput,
	listVersions,
	presetView,
	restoreVersion,
	setVisibility,
	storeDraft,
	takeDown,
	updateFromInput,
	viewVersion,
	type PresetRow
} from '../../../src/lib/server/presets';
import { emptyForm } from '../../../src/lib/presets/form';
import { outcomeCode, presetInput } from '../presets/factory';

const code = outcomeCode;

describe('version history', () => {
	let env: TestEnv;
	let author: AuthUser;
	let stranger: AuthUser;
	let admin: AuthUser;
	let row: PresetRow;

	beforeAll(async () => {
		env = await testEnv();
		const { app } = env;
		admin = await createUser(app, { name: 'admin', password: 'correct horse battery' }, { viaOperator: true, admin: true });
		author = await createUser(app, { name: 'author', password: 'correct horse battery' }, { viaOperator: true });
		stranger = await createUser(app, { name: 'stranger', password: 'correct horse battery' }, { viaOperator: true });
		const first = presetInput({ title: 'Salt Roads' });
		row = await createFromInput(app, author, first);
		const second = structuredClone(first);
		second.title = 'Salt Roads II';
		const [npc] = second.npcs;
		if (!npc) throw new Error('the factory preset has no NPC');
		npc.personality = `${npc.personality} Now afraid of the dark.`;
		second.npcs.push({ ...npc, name: 'Sela the Quick', personality: 'Quick.' });
		row = await updateFromInput(app, author, row.id, second, 'Sela joins; the guide fears the dark');
		row = await setVisibility(app.control.db, row, 'public', { publishPerDay: 0 });
	}, 60_000);
	afterAll(async () => {
		await env.cleanup();
	});

	it('lists the versions newest first, with date, note and who saved them', async () => {
		const versions = await listVersions(env.app, author, row.id);
		expect(versions.map((v) => [v.version, v.note, v.savedBy, v.current])).toEqual([
			[2, 'Sela joins; the guide fears the dark', 'author', true],
			[1, '', 'author', false]
		]);
		expect(Date.parse(versions[0]?.createdAt ?? '')).not.toBeNaN();
	});

	it('shows one version read-only with what changed since the one before', async () => {
		const view = await viewVersion(env.app, author, row.id, '2');
		expect(view.previous).toBe(1);
		expect(view.content.title).toBe('Salt Roads II');
		const paths = view.changes.map((c) => `${c.change} ${c.path}`);
		expect(paths).toContain('changed title');
		expect(paths).toContain('added npcs[Sela the Quick]');
		expect(paths.some((p) => /^changed npcs\[.+\]\.personality$/.test(p))).toBe(true);
		const first = await viewVersion(env.app, author, row.id, 1);
		expect(first).toMatchObject({ previous: null, changes: [] });
	});

	it('restores an old version as a new one and keeps the history', async () => {
		const restored = await restoreVersion(env.app, author, row.id, 1);
		expect(restored.currentVersion).toBe(3);
		const versions = await listVersions(env.app, author, row.id);
		expect(versions.map((v) => v.version)).toEqual([3, 2, 1]);
		expect(versions[0]?.note).toBe('Restored from version 1.');
		expect((await presetView(env.app, row.id, stranger)).title).toBe('Salt Roads');
		const view = await viewVersion(env.app, author, row.id, 3);
		expect(view.changes.map((c) => `${c.change} ${c.path}`)).toContain('removed npcs[Sela the Quick]');
	});

	it('refuses to restore, on a shared preset, a version whose text was taken down since', async () => {
		const first = presetInput({ title: 'Ash Roads' });
		let shared = await createFromInput(env.app, author, first);
		shared = await updateFromInput(env.app, author, shared.id, { ...first, title: 'Ash Roads (clean)' });
		shared = await setVisibility(env.app.control.db, shared, 'unlisted', { publishPerDay: 0 });
		const copy = await setVisibility(env.app.control.db, await createFromInput(env.app, stranger, first), 'public', { publishPerDay: 0 });
		await takeDown(env.app.control.db, copy.id, { adminId: admin.id, reason: 'test' });
		expect(await code(restoreVersion(env.app, author, shared.id, 1))).toBe('forbidden');
	});

	it('is "not found" to anyone but the author, even on a public preset, and for a version that is not kept', async () => {
		for (const viewer of [stranger, admin]) {
			expect(await code(listVersions(env.app, viewer, row.id))).toBe('not_found');
			expect(await code(viewVersion(env.app, viewer, row.id, 1))).toBe('not_found');
			expect(await code(restoreVersion(env.app, viewer, row.id, 1))).toBe('not_found');
		}
		expect(await code(viewVersion(env.app, author, row.id, 99))).toBe('not_found');
		expect(await code(viewVersion(env.app, author, row.id, '1; DROP TABLE presets'))).toBe('not_found');
		expect(await code(listVersions(env.app, author, 'sword-and-sorcery'))).toBe('not_found');
	});

	it("keeps another user's draft out of reach", async () => {
		await storeDraft(env.app, author, row.id, { ...emptyForm('en'), title: 'Half-written' });
		expect('draft' in (await presetView(env.app, row.id, stranger))).toBe(false);
		expect(await code(storeDraft(env.app, stranger, row.id, emptyForm('en')))).toBe('forbidden');
		// A private preset, its draft and its versions do not exist for anyone else.
		const hidden = await createFromInput(env.app, author, presetInput({ title: 'Hidden Vale' }));
		await storeDraft(env.app, author, hidden.id, { ...emptyForm('en'), title: 'Hidden, half-written' });
		expect(await code(presetView(env.app, hidden.id, stranger))).toBe('not_found');
		expect(await code(storeDraft(env.app, stranger, hidden.id, emptyForm('en')))).toBe('not_found');
		expect(await code(listVersions(env.app, stranger, hidden.id))).toBe('not_found');
	});
});
