/**
 * Remix on a real control database: allowed → a private draft of the remixer's own that keeps the
 * original's title, author and id (and not the author's notes); not allowed → forbidden (403); not
 * visible → not_found (404); taken down, or a copy of a world taken down → forbidden.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../helpers/env';
import { createUser, type AuthUser } from '../../../src/lib/server/auth';
import {
	createFromInput,
	editablePreset,
	exportPresetAs,
	presetView,
	remixPreset,
	setVisibility,
	takeDown,
	type PresetRow
} from '../../../src/lib/server/presets';
import { outcomeCode, presetInput } from '../presets/factory';

const code = outcomeCode;

describe('remix', () => {
	let env: TestEnv;
	let author: AuthUser;
	let remixer: AuthUser;
	let admin: AuthUser;
	const publish = (row: PresetRow) => setVisibility(env.app.control.db, row, 'public', { publishPerDay: 0 });

	beforeAll(async () => {
		env = await testEnv();
		admin = await createUser(env.app, { name: 'admin', password: 'correct horse battery' }, { viaOperator: true, admin: true });
		author = await createUser(env.app, { name: 'weaver', password: 'correct horse battery' }, { viaOperator: true });
		remixer = await createUser(env.app, { name: 'remixer', password: 'correct horse battery' }, { viaOperator: true });
	}, 60_000);
	afterAll(async () => {
		await env.cleanup();
	});

	it('copies an allowed world into a private draft with attribution, without the author’s notes', async () => {
		const original = await publish(
			await createFromInput(env.app, author, { ...presetInput({ title: 'Loom City' }), remixAllowed: true, notes: 'MY-OWN-NOTES' })
		);
		const copy = await remixPreset(env.app, remixer, original.id);
		expect(copy).toMatchObject({ authorId: remixer.id, visibility: 'private', currentVersion: null });
		const { draft } = await editablePreset(env.app, copy.id, remixer);
		expect(draft?.form.title).toBe('Loom City');
		expect(draft?.form.notes).toBe('');
		expect(draft?.form.remixAllowed).toBe(false);
		expect(JSON.parse(draft?.form.remixOf ?? '{}')).toEqual({ id: original.id, title: 'Loom City', author: 'weaver' });
		// Saved, the copy shows where it came from, and its export carries it.
		const { saveForm } = await import('../../../src/lib/server/presets');
		if (!draft) throw new Error('no draft');
		await saveForm(env.app, remixer, copy.id, draft.form);
		expect((await presetView(env.app, copy.id, remixer)).remixOf).toEqual({ id: original.id, title: 'Loom City', author: 'weaver' });
		const file = await exportPresetAs(env.app, remixer, copy.id, 'kantera');
		expect(new TextDecoder().decode(file.body)).toContain(original.id);
	});

	it('refuses a world whose author does not allow it (403) and one the remixer cannot see (404)', async () => {
		const closed = await publish(await createFromInput(env.app, author, presetInput({ title: 'Closed Loom' })));
		expect(await code(remixPreset(env.app, remixer, closed.id))).toBe('forbidden');
		const hidden = await createFromInput(env.app, author, { ...presetInput({ title: 'Hidden Loom' }), remixAllowed: true });
		expect(await code(remixPreset(env.app, remixer, hidden.id))).toBe('not_found');
		const mature = await publish(
			await createFromInput(env.app, author, { ...presetInput({ title: 'Dark Loom' }), remixAllowed: true, rating: 'mature' })
		);
		expect(await code(remixPreset(env.app, remixer, mature.id))).toBe('not_found');
		expect(await code(remixPreset(env.app, remixer, 'sword-and-sorcery'))).toBe('forbidden');
	});

	it('refuses a taken-down world, and a public copy of one', async () => {
		const input = { ...presetInput({ title: 'Banned Loom' }), remixAllowed: true };
		const banned = await publish(await createFromInput(env.app, author, input));
		const twin = await publish(await createFromInput(env.app, author, { ...input }));
		await takeDown(env.app.control.db, banned.id, { adminId: admin.id, reason: 'test' });
		expect(await code(remixPreset(env.app, remixer, banned.id))).toBe('not_found');
		expect(await code(remixPreset(env.app, remixer, twin.id))).toBe('forbidden');
	});
});

describe('creator pages', () => {
	let env: TestEnv;

	beforeAll(async () => {
		env = await testEnv();
	}, 60_000);
	afterAll(async () => {
		await env.cleanup();
	});

	it("lists a creator's public worlds only, newest first, and nothing for an unknown name", async () => {
		const { creatorPage } = await import('../../../src/lib/server/gallery');
		const maker = await createUser(env.app, { name: 'maker', password: 'correct horse battery' }, { viaOperator: true });
		const other = await createUser(env.app, { name: 'other', password: 'correct horse battery' }, { viaOperator: true });
		const db = env.app.control.db;
		const first = await setVisibility(db, await createFromInput(env.app, maker, presetInput({ title: 'First' })), 'public', {
			publishPerDay: 0,
			now: 1
		});
		const second = await setVisibility(db, await createFromInput(env.app, maker, presetInput({ title: 'Second' })), 'public', {
			publishPerDay: 0,
			now: 2
		});
		await createFromInput(env.app, maker, presetInput({ title: 'Private' }));
		await setVisibility(db, await createFromInput(env.app, maker, { ...presetInput({ title: 'Grim' }), rating: 'mature' }), 'public', {
			publishPerDay: 0
		});
		await setVisibility(db, await createFromInput(env.app, other, presetInput({ title: 'Theirs' })), 'public', { publishPerDay: 0 });
		const req = { cursor: '', limit: 24, mature: false, displayLanguage: 'en' as const };
		const page = await creatorPage(db, 'maker', req);
		expect(page?.name).toBe('maker');
		expect(page?.page.items.map((i) => i.id)).toEqual([second.id, first.id]);
		expect((await creatorPage(db, 'maker', { ...req, mature: true }))?.page.items).toHaveLength(3);
		expect(await creatorPage(db, 'nobody', req)).toBeNull();
	});
});
