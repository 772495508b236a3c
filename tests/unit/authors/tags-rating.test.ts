/**
 * Tags and the content rating on a real control database: tags normalised and indexed for the
 * gallery's filter (by the current version), worlds rated mature left out of the shelves, search and
 * the API's answers for anonymous and opted-out viewers, and for everyone when the operator turned
 * mature off; their authors always see them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../helpers/env';
import { createUser, setShowMature, type AuthUser } from '../../../src/lib/server/auth';
import { galleryPage, GalleryQuerySchema, type GalleryRequest } from '../../../src/lib/server/gallery';
import {
	createFromInput,
	matureShownTo,
	playPreset,
	presetView,
	setVisibility,
	updateFromInput,
	type PresetRow
} from '../../../src/lib/server/presets';
import * as v from 'valibot';
import { outcomeCode, presetInput } from '../presets/factory';

const NOW = Date.UTC(2031, 5, 1);

function request(over: Partial<GalleryRequest>): GalleryRequest {
	return {
		shelf: 'new',
		language: '',
		q: '',
		tag: '',
		rating: '',
		mature: false,
		cursor: '',
		limit: 24,
		displayLanguage: 'en',
		now: NOW,
		...over
	};
}

const code = outcomeCode;

describe('tags and rating', () => {
	let env: TestEnv;
	let author: AuthUser;
	let optedIn: AuthUser;
	let optedOut: AuthUser;
	let calm: PresetRow;
	let grim: PresetRow;

	async function ids(over: Partial<GalleryRequest>): Promise<string[]> {
		return (await galleryPage(env.app.control.db, request(over))).items.map((i) => i.id);
	}

	beforeAll(async () => {
		env = await testEnv();
		const { app } = env;
		author = await createUser(app, { name: 'author', password: 'correct horse battery' }, { viaOperator: true });
		optedIn = await createUser(app, { name: 'grown', password: 'correct horse battery' }, { viaOperator: true });
		optedOut = await createUser(app, { name: 'careful', password: 'correct horse battery' }, { viaOperator: true });
		await setShowMature(app.control.db, optedIn.id, true);
		const publish = (row: PresetRow) => setVisibility(app.control.db, row, 'public', { publishPerDay: 0 });
		calm = await publish(
			await createFromInput(app, author, {
				...presetInput({ title: 'Quiet Harbour' }),
				tags: ['  #Slow   Burn', 'ＳＦ'],
				rating: 'general'
			})
		);
		grim = await publish(
			await createFromInput(app, author, { ...presetInput({ title: 'Grim Harbour' }), tags: ['slow burn', 'horror'], rating: 'mature' })
		);
	}, 60_000);
	afterAll(async () => {
		await env.cleanup();
	});

	it('keeps tags normalised and refuses two spellings of one tag', async () => {
		const view = await presetView(env.app, calm.id, null);
		expect(view.tags).toEqual(['Slow Burn', 'SF']);
		expect(await code(createFromInput(env.app, author, { ...presetInput(), tags: ['Sci-Fi', 'sci-fi'] }))).toBe('invalid');
		expect(await code(createFromInput(env.app, author, { ...presetInput(), tags: ['x'.repeat(41)] }))).toBe('invalid');
		expect(await code(createFromInput(env.app, author, { ...presetInput(), tags: Array.from({ length: 31 }, (_, i) => `t${i}`) }))).toBe(
			'invalid'
		);
		expect(await code(createFromInput(env.app, author, { ...presetInput(), rating: 'adult' }))).toBe('invalid');
	});

	it('filters a shelf by tag, whatever the case or width asked, and by the current version only', async () => {
		const tag = (raw: string) => v.parse(GalleryQuerySchema, { tag: raw }).tag;
		expect(await ids({ tag: tag('SLOW BURN') })).toEqual([calm.id]);
		expect(await ids({ tag: tag('sf') })).toEqual([calm.id]);
		expect(await ids({ tag: tag('slow burn'), mature: true })).toEqual([grim.id, calm.id]);
		expect(await ids({ tag: tag('nothing-like-it') })).toEqual([]);
		// A new version without the tag takes it off that shelf.
		calm = await updateFromInput(env.app, author, calm.id, { ...presetInput({ title: 'Quiet Harbour' }), tags: ['SF'] });
		expect(await ids({ tag: tag('slow burn') })).toEqual([]);
		expect(await ids({ tag: tag('sf') })).toEqual([calm.id]);
		// Tags are searched like the title and tagline.
		expect(await ids({ q: 'horror', mature: true })).toEqual([grim.id]);
	});

	it('lists a mature world only for a viewer who may see it, on every shelf and in search', async () => {
		expect(await matureShownTo(env.app.control.db, env.app.config, undefined)).toBe(false);
		expect(await matureShownTo(env.app.control.db, env.app.config, optedOut.id)).toBe(false);
		expect(await matureShownTo(env.app.control.db, env.app.config, optedIn.id)).toBe(true);
		expect(await ids({ q: 'harbour' })).toEqual([calm.id]);
		expect(await ids({ q: 'harbour', shelf: 'popular' })).toEqual([calm.id]);
		expect(await ids({ q: 'harbour', mature: true })).toEqual([grim.id, calm.id]);
		expect(await ids({ q: 'harbour', mature: true, rating: 'mature' })).toEqual([grim.id]);
		// Asking for mature without being allowed it lists nothing rather than something.
		expect(await ids({ q: 'harbour', rating: 'mature' })).toEqual([]);
		const page = await galleryPage(env.app.control.db, request({ q: 'grim', mature: true }));
		expect(page.items[0]).toMatchObject({ rating: 'mature', tags: ['horror', 'slow burn'] });
	});

	it('answers "not found" for a mature world to anonymous and opted-out viewers, never to its author', async () => {
		expect(await code(presetView(env.app, grim.id, null))).toBe('not_found');
		expect(await code(presetView(env.app, grim.id, optedOut))).toBe('not_found');
		expect(await code(playPreset(env.app, optedOut, grim.id))).toBe('not_found');
		expect((await presetView(env.app, grim.id, optedIn)).rating).toBe('mature');
		expect((await presetView(env.app, grim.id, author)).title).toBe('Grim Harbour');
	});
});

describe('the operator turned mature off', () => {
	let env: TestEnv;

	beforeAll(async () => {
		env = await testEnv({ KANTERA_MATURE_CONTENT: 'off' });
	}, 60_000);
	afterAll(async () => {
		await env.cleanup();
	});

	it('hides mature worlds even from those who opted in', async () => {
		const { app } = env;
		const author = await createUser(app, { name: 'author', password: 'correct horse battery' }, { viaOperator: true });
		const reader = await createUser(app, { name: 'reader', password: 'correct horse battery' }, { viaOperator: true });
		await setShowMature(app.control.db, reader.id, true);
		const grim = await setVisibility(
			app.control.db,
			await createFromInput(app, author, { ...presetInput({ title: 'Grim Harbour' }), rating: 'mature' }),
			'public',
			{ publishPerDay: 0 }
		);
		expect(await matureShownTo(app.control.db, app.config, reader.id)).toBe(false);
		expect(await code(presetView(app, grim.id, reader))).toBe('not_found');
		expect((await presetView(app, grim.id, author)).rating).toBe('mature');
	});

	it('refuses an invalid switch at start-up', async () => {
		await expect(testEnv({ KANTERA_MATURE_CONTENT: 'maybe' })).rejects.toThrow(/KANTERA_MATURE_CONTENT/);
	});
});
