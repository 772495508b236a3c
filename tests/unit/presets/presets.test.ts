/**
 * The data rules of presets, on a real control database and real session databases: versions and
 * drafts, who may see what, publishing, sessions copying the version they started from, deletion.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { inspect } from 'node:util';
import { testEnv, type TestEnv } from '../../helpers/env';
import { createUser, type AuthUser } from '../../../src/lib/server/auth';
import { controlSchema } from '../../../src/lib/server/db';
import { documents } from '../../../src/lib/server/records';
import { readMission } from '../../../src/lib/server/session-setup';
import { readOrigin, readPresetCopy, SEALED_DOCUMENTS_RULE } from '../../../src/lib/server/worlds';
import { getPlaySession } from '../../../src/lib/server/sessions';
import { prologueText, titleCard } from '../../../src/lib/server/stage';
import {
	changeVisibility,
	createFromInput,
	deletePreset,
	favorite,
	getPresetRow,
	importPreset,
	KEPT_VERSIONS,
	takeDown,
	liftTakedown,
	appealTakedown,
	currentTakedown,
	exportPresetAs,
	saveForm,
	playPreset,
	presetView,
	PresetError,
	setVisibility,
	storeDraft,
	updateFromInput,
	visiblePreset
} from '../../../src/lib/server/presets';
import { emptyForm } from '../../../src/lib/presets/form';
import { presetInput, SETTING_MARKER } from './factory';

let env: TestEnv;
let author: AuthUser;
let player: AuthUser;
let admin: AuthUser;
const PASSWORD = 'correct horse battery';

beforeEach(async () => {
	env = await testEnv({ KANTERA_PUBLISH_PER_DAY: '2' });
	admin = await createUser(env.app, { name: 'root', password: PASSWORD }, { viaOperator: true, admin: true });
	author = await createUser(env.app, { name: 'author', password: PASSWORD }, { viaOperator: true });
	player = await createUser(env.app, { name: 'player', password: PASSWORD }, { viaOperator: true });
});
afterEach(async () => {
	await env.cleanup();
});

async function code(promise: Promise<unknown>): Promise<string | undefined> {
	const err = await promise.then(
		() => undefined,
		(e: unknown) => e
	);
	return err instanceof PresetError ? err.code : err === undefined ? undefined : err instanceof Error ? err.toString() : inspect(err);
}

describe('versions and drafts', () => {
	it('a save adds a version only when the content changed, and clears the draft', async () => {
		const { app } = env;
		const row = await createFromInput(app, author, presetInput());
		expect(row.currentVersion).toBe(1);
		await storeDraft(app, author, row.id, emptyForm('en'));
		expect((await getPresetRow(app.control.db, row.id))?.draft).not.toBeNull();
		const same = await updateFromInput(app, author, row.id, presetInput());
		expect(same.currentVersion).toBe(1);
		expect(same.draft).toBeNull();
		const changed = await updateFromInput(app, author, row.id, presetInput({ tagline: 'A new line.' }));
		expect(changed.currentVersion).toBe(2);
		expect(changed.tagline).toBe('A new line.');
	});

	it(`keeps the last ${KEPT_VERSIONS} versions`, async () => {
		const { app } = env;
		const row = await createFromInput(app, author, presetInput());
		for (let i = 0; i < KEPT_VERSIONS + 2; i++) await updateFromInput(app, author, row.id, presetInput({ tagline: `Version ${i}` }));
		const versions = await app.control.db
			.select({ v: controlSchema.presetVersions.version })
			.from(controlSchema.presetVersions)
			.where(eq(controlSchema.presetVersions.presetId, row.id));
		expect(versions).toHaveLength(KEPT_VERSIONS);
		expect(Math.max(...versions.map((x) => x.v))).toBe(KEPT_VERSIONS + 3);
	});

	it('invalid content changes nothing', async () => {
		const { app } = env;
		const row = await createFromInput(app, author, presetInput());
		expect(await code(updateFromInput(app, author, row.id, presetInput({ title: '' })))).toBe('invalid');
		expect((await getPresetRow(app.control.db, row.id))?.currentVersion).toBe(1);
		const before = await app.control.db.select().from(controlSchema.presets);
		expect(await code(createFromInput(app, author, { ...presetInput(), npcs: [] }))).toBe('invalid');
		expect(await app.control.db.select().from(controlSchema.presets)).toHaveLength(before.length);
	});
});

describe('visibility', () => {
	it('private is the author’s alone; unlisted and public are visible to others; official presets to everyone', async () => {
		const { app } = env;
		const row = await createFromInput(app, author, presetInput());
		expect(row.visibility).toBe('private');
		expect(await code(visiblePreset(app.control.db, row.id, player))).toBe('not_found');
		expect(await code(visiblePreset(app.control.db, row.id, null))).toBe('not_found');
		expect(await code(visiblePreset(app.control.db, row.id, admin))).toBe('not_found');
		// Every way in answers "not found", the same as for no preset at all.
		expect(await code(favorite(app, player, row.id, true))).toBe('not_found');
		expect(await code(playPreset(app, player, row.id))).toBe('not_found');
		expect(await code(updateFromInput(app, player, row.id, presetInput()))).toBe('not_found');
		expect(await code(changeVisibility(app, player, row.id, 'public'))).toBe('not_found');
		expect(await code(deletePreset(app, player, row.id))).toBe('not_found');
		expect(await code(presetView(app, 'no-such-preset', player))).toBe('not_found');

		await changeVisibility(app, author, row.id, 'unlisted');
		expect((await visiblePreset(app.control.db, row.id, player)).id).toBe(row.id);
		expect((await visiblePreset(app.control.db, row.id, null)).id).toBe(row.id);
		// Seen is not owned: another user can't change it.
		expect(await code(updateFromInput(app, player, row.id, presetInput()))).toBe('forbidden');
		expect(await code(changeVisibility(app, author, 'sword-and-sorcery', 'private'))).toBe('read_only');
		expect((await visiblePreset(app.control.db, 'iron-walkers', null)).official).toBe(true);
	});

	it('a draft (an import) can be neither shared nor played until it is saved as a valid preset', async () => {
		const { app } = env;
		const card = { spec: 'chara_card_v2', spec_version: '2.0', data: { name: 'Mira', description: 'A lighthouse keeper.' } };
		const { row: draft } = await importPreset(app, author, new TextEncoder().encode(JSON.stringify(card)));
		expect(draft.currentVersion).toBeNull();
		expect(await code(changeVisibility(app, author, draft.id, 'unlisted'))).toBe('not_playable');
		expect(await code(playPreset(app, author, draft.id))).toBe('not_playable');
	});

	it('publishing is rate-limited per user over 24 hours, counting every switch to public', async () => {
		const { app } = env;
		const a = await createFromInput(app, author, presetInput({ title: 'One' }));
		const b = await createFromInput(app, author, presetInput({ title: 'Two' }));
		const c = await createFromInput(app, author, presetInput({ title: 'Three' }));
		const t0 = Date.UTC(2030, 0, 1);
		const limit = { publishPerDay: 2 };
		await setVisibility(app.control.db, a, 'public', { ...limit, now: t0 });
		await setVisibility(app.control.db, b, 'public', { ...limit, now: t0 + 1000 });
		const refused = await setVisibility(app.control.db, c, 'public', { ...limit, now: t0 + 2000 }).catch((e: unknown) => e);
		expect(refused).toBeInstanceOf(PresetError);
		expect(refused).toMatchObject({ code: 'rate_limited' });
		if (refused instanceof PresetError) expect(refused.details.retryAt?.getTime()).toBe(t0 + 24 * 3600_000);
		expect((await getPresetRow(app.control.db, c.id))?.visibility).toBe('private');
		// A day later the window has moved on.
		await setVisibility(app.control.db, c, 'public', { ...limit, now: t0 + 24 * 3600_000 + 1 });
		expect((await getPresetRow(app.control.db, c.id))?.visibility).toBe('public');
		// Unlisting is never limited.
		const after = await getPresetRow(app.control.db, a.id);
		if (after) await setVisibility(app.control.db, after, 'unlisted', { ...limit, now: t0 + 24 * 3600_000 + 2 });
	});

	it('a preset an administrator took down: off to everyone but its author (and administrators), never shared again until lifted', async () => {
		const { app } = env;
		const row = await createFromInput(app, author, presetInput());
		await changeVisibility(app, author, row.id, 'public');
		await takeDown(app.control.db, row.id, { reason: 'Copied from a paid book.', adminId: admin.id });
		expect(await code(visiblePreset(app.control.db, row.id, player))).toBe('not_found');
		expect((await visiblePreset(app.control.db, row.id, admin)).id).toBe(row.id);
		const seen = await visiblePreset(app.control.db, row.id, author);
		// Private again: no "Public" badge or working link to a preset nobody else can open.
		expect(seen).toMatchObject({ visibility: 'private' });
		expect(seen.moderatedAt).not.toBeNull();
		expect(await code(changeVisibility(app, author, row.id, 'unlisted'))).toBe('forbidden');
		expect(await code(changeVisibility(app, author, row.id, 'public'))).toBe('forbidden');
		expect(await currentTakedown(app.control.db, row.id)).toMatchObject({ reason: 'Copied from a paid book.', appeal: null });
		expect(await code(takeDown(app.control.db, 'sword-and-sorcery', { reason: 'x', adminId: admin.id }))).toBe('not_found');

		// The author appeals once; the admin lifts it; it can be shared again.
		await appealTakedown(app.control.db, seen, author, 'It is my own text.');
		expect(await code(appealTakedown(app.control.db, seen, author, 'Again!'))).toBe('forbidden');
		expect(await code(appealTakedown(app.control.db, seen, player, 'Me too'))).toBe('not_found');
		expect(await currentTakedown(app.control.db, row.id)).toMatchObject({ appeal: 'It is my own text.' });
		await liftTakedown(app.control.db, row.id);
		expect(await currentTakedown(app.control.db, row.id)).toBeNull();
		await changeVisibility(app, author, row.id, 'public');
		expect((await visiblePreset(app.control.db, row.id, player)).id).toBe(row.id);
	});

	it('a takedown survives export and import: the same world under a new id cannot be shared, by anyone', async () => {
		const { app } = env;
		const row = await createFromInput(app, author, presetInput());
		await changeVisibility(app, author, row.id, 'public');
		const file = await exportPresetAs(app, author, row.id, 'kantera');
		await takeDown(app.control.db, row.id, { reason: 'Harassment.', adminId: admin.id });

		for (const who of [author, player]) {
			const { row: draft } = await importPreset(app, who, file.body, file.fileName);
			const form = JSON.parse(draft.draft ?? 'null') as Parameters<typeof saveForm>[3];
			const copy = await saveForm(app, who, draft.id, form);
			expect(copy.currentVersion).not.toBeNull();
			expect(await code(changeVisibility(app, who, copy.id, 'public'))).toBe('forbidden');
			expect(await code(changeVisibility(app, who, copy.id, 'unlisted'))).toBe('forbidden');
			// A world that differs is another world.
			const changed = await updateFromInput(app, who, copy.id, presetInput({ title: 'A different story' }));
			await changeVisibility(app, who, changed.id, 'unlisted');
			// Shared now: saving the taken-down world into it as a new version is refused, and nothing is saved.
			expect(await code(updateFromInput(app, who, changed.id, presetInput()))).toBe('forbidden');
			expect((await getPresetRow(app.control.db, changed.id))?.currentVersion).toBe(changed.currentVersion);
		}
		// Lifted: copies may be shared too.
		await liftTakedown(app.control.db, row.id);
		const { row: again } = await importPreset(app, player, file.body, file.fileName);
		const saved = await saveForm(app, player, again.id, JSON.parse(again.draft ?? 'null') as Parameters<typeof saveForm>[3]);
		await changeVisibility(app, player, saved.id, 'unlisted');
	});
});

describe('playing a preset', () => {
	it('the session copies the version it started from; the author’s edits apply to new sessions only', async () => {
		const { app } = env;
		const row = await createFromInput(app, author, presetInput());
		await changeVisibility(app, author, row.id, 'unlisted');
		const first = await playPreset(app, player, row.id);
		await updateFromInput(app, author, row.id, presetInput({ title: 'Renamed world' }));
		const second = await playPreset(app, player, row.id);

		const origins = await Promise.all([first, second].map((s) => app.sessions.use(s.session.id, (db) => readOrigin(db.db))));
		expect(origins).toEqual([
			{ presetId: row.id, version: 1, sealed: true },
			{ presetId: row.id, version: 2, sealed: true }
		]);
		const copy = await app.sessions.use(first.session.id, (db) => readPresetCopy(db.db));
		expect(copy).toContain('(fan edition)');
		expect(first.session.title).toMatch(/fan edition/);
		expect(second.session.title).toBe('Renamed world');
	});

	it('another player’s session has the documents sealed (names only) and the rule in the mission; the author’s does not', async () => {
		const { app } = env;
		const row = await createFromInput(app, author, presetInput());
		await changeVisibility(app, author, row.id, 'unlisted');
		const theirs = await playPreset(app, player, row.id);
		const own = await playPreset(app, author, row.id);
		const look = (id: string) =>
			app.sessions.use(id, async (db) => ({
				listed: await documents.list(db.db, { includeGmOnly: false, includeVisibleTitles: true }),
				readable: await documents.list(db.db, { includeGmOnly: false }),
				mission: await readMission(db.db)
			}));
		const sealed = await look(theirs.session.id);
		expect(sealed.listed.map((d) => [d.title, d.gmOnly])).toEqual([
			['Premise', true],
			['World Setting', true],
			['PC Sheet', true]
		]);
		expect(sealed.readable).toEqual([]);
		expect(sealed.mission).toContain(SEALED_DOCUMENTS_RULE);
		const open = await look(own.session.id);
		expect(open.readable.map((d) => d.title)).toEqual(['Premise', 'World Setting', 'PC Sheet']);
		expect(open.mission).not.toContain(SEALED_DOCUMENTS_RULE);
	});

	it('opens on the preset’s own title card and prologue, from the version copied; another player’s prologue leaves the sealed premise out', async () => {
		const { app } = env;
		const base = presetInput();
		const premise = 'PREMISE-LINE-4Q: you owe the harbour master a debt.';
		const opening = { ...base.opening, scene: { name: 'Lantern Quay', description: 'Wet stones under paper lanterns.' } };
		const row = await createFromInput(app, author, {
			...base,
			documents: { ...base.documents, premise: { ...base.documents.premise, body: premise } },
			opening
		});
		await changeVisibility(app, author, row.id, 'unlisted');
		const theirs = await playPreset(app, player, row.id);
		const own = await playPreset(app, author, row.id);
		// A later edit applies to new sessions only: the prologue already written stays the copied version's.
		await updateFromInput(app, author, row.id, {
			...base,
			title: 'Renamed world',
			opening: { ...opening, scene: { name: 'Salt Gate', description: 'Fog.' } }
		});
		const look = (id: string) =>
			app.sessions.use(id, async (db) => ({ card: await titleCard(db.db), prologue: await prologueText(db.db) }));
		const sealed = await look(theirs.session.id);
		expect(sealed.card).toEqual({ title: base.title, tagline: base.tagline, scene: 'Lantern Quay' });
		expect(sealed.prologue).toContain('Wet stones under paper lanterns.');
		for (const name of base.opening.present) expect(sealed.prologue).toContain(name);
		expect(sealed.prologue).not.toContain('PREMISE-LINE-4Q');
		const open = await look(own.session.id);
		expect(open.card?.scene).toBe('Lantern Quay');
		expect(open.prologue).toContain('PREMISE-LINE-4Q');
	});

	it('counts distinct players other than the author', async () => {
		const { app } = env;
		const row = await createFromInput(app, author, presetInput());
		await changeVisibility(app, author, row.id, 'public');
		await playPreset(app, author, row.id);
		await playPreset(app, player, row.id);
		await playPreset(app, player, row.id);
		await playPreset(app, admin, 'sword-and-sorcery', { language: 'ja' });
		expect(await getPresetRow(app.control.db, row.id)).toMatchObject({ playersTotal: 1, players30d: 1 });
		expect(await getPresetRow(app.control.db, 'sword-and-sorcery')).toMatchObject({ playersTotal: 1 });
		expect(await code(playPreset(app, player, row.id, { language: 'ja' }))).toBe('invalid');
	});

	it('deleting a preset leaves the sessions played from it as they were', async () => {
		const { app } = env;
		const row = await createFromInput(app, author, presetInput());
		await changeVisibility(app, author, row.id, 'public');
		await favorite(app, player, row.id, true);
		const { session } = await playPreset(app, player, row.id);
		await app.covers.idle();
		await deletePreset(app, author, row.id);
		expect(await getPresetRow(app.control.db, row.id)).toBeUndefined();
		expect((await getPlaySession(app, player.id, session.id)).id).toBe(session.id);
		const gm = await app.sessions.use(session.id, async (db) => {
			const all = await documents.list(db.db, { includeGmOnly: true });
			const setting = all.find((d) => d.title === 'World Setting');
			return setting ? (await documents.get(db.db, setting.id)).body : '';
		});
		expect(gm).toContain(SETTING_MARKER);
		expect(await app.control.db.select().from(controlSchema.presetFavorites)).toEqual([]);
	});
});
