/**
 * Starting a session from a preset: the viewer must be able to see it and it must have a saved
 * version. The session copies that version (an author's later edits apply to new sessions only),
 * keeps the documents sealed when the player is not the author, and the play is counted.
 */
import { getWorld, type SeedArt, type WorldPreset } from '../worlds';
import type { ImageStore } from '../images';
import { spriteVariantName } from '../../adv';
import { artFiles, DEFAULT_EXPRESSION, type ArtFile } from './art';
import { audioFiles } from './audio';
import { isLanguage, type Language } from '../../types/settings';
import { startSession, TITLE_MAX, type SessionsDeps, type StartSessionInput, type StartedSession } from '../sessions';
import { isSealedFor, visiblePreset, type Viewer } from './access';
import { PresetError } from './errors';
import { OFFICIAL_VERSION } from './official';
import { recordPlay } from './plays';
import { checkRating } from './rating';
import type { Config } from '../config';
import { loadVersion, type PresetRow } from './store';

export interface PlayOptions {
	/** The session's title; the world's title when absent or blank. */
	title?: string;
	/**
	 * An official preset's language (they exist in every language). An author's preset plays in its
	 * own language: asking for another is refused rather than silently ignored.
	 */
	language?: Language;
	llm?: StartSessionInput['llm'];
	now?: number;
}

/** The content a session would start from: the preset's current version, or the official world in `language`. */
async function playableContent(
	app: Pick<SessionsDeps, 'control'>,
	row: PresetRow,
	language: Language | undefined
): Promise<{ world: WorldPreset; version: number }> {
	if (row.official) {
		const lang = language && isLanguage(language) ? language : 'en';
		return { world: getWorld(row.id, lang), version: OFFICIAL_VERSION };
	}
	if (row.currentVersion === null)
		throw new PresetError('not_playable', 'This preset is only a draft: save it as a complete world before playing it.');
	return { world: await loadVersion(app.control.db, row.id, row.currentVersion), version: row.currentVersion };
}

/** What a session shows of the author's art: sprites and backgrounds (the cover is the gallery's). */
function seedArt(file: ArtFile): SeedArt[] {
	if (file.kind === 'place') return [{ target: 'scene', targetName: file.name, image: file.image }];
	if (file.kind === 'cover') return [];
	const targetName = file.expression === DEFAULT_EXPRESSION ? file.name : spriteVariantName(file.name, file.expression);
	return [{ target: 'npc', targetName, image: file.image }];
}

/**
 * `app` is what starting a session needs (an `App` fits): the control database holds the preset too,
 * and the image store its art, which the session copies.
 */
export async function playPreset(
	app: SessionsDeps & { images?: { store: Pick<ImageStore, 'get' | 'put'> }; config: Pick<Config, 'presets'> },
	viewer: Viewer,
	presetId: unknown,
	options: PlayOptions = {}
): Promise<StartedSession & { preset: PresetRow }> {
	const row = await visiblePreset(app.control.db, presetId, viewer);
	await checkRating(app.control.db, app.config, row, viewer);
	const { world, version } = await playableContent(app, row, options.language);
	if (options.language !== undefined && options.language !== world.language) {
		throw new PresetError(
			'invalid',
			`This preset is written in ${world.language === 'ja' ? 'Japanese' : 'English'} and is played in it; leave the language out or ask for "${world.language}".`
		);
	}
	const title = options.title?.trim() || world.title.slice(0, TITLE_MAX);
	const art = row.official || !app.images ? [] : await artFiles(app.control, app.images.store, row.id);
	const sounds = row.official || !app.images ? [] : await audioFiles(app.control, app.images.store, row.id);
	const store = app.images?.store;
	const started = await startSession(app, {
		ownerId: viewer.id,
		title,
		language: world.language,
		preset: {
			world,
			sealed: isSealedFor(row, viewer),
			origin: { presetId: row.id, version },
			art: art.flatMap(seedArt),
			sounds: sounds.map((s) => ({ kind: s.kind, name: s.name, file: s.file })),
			copyArt: async (sessionId) => {
				for (const file of art) await store?.put(sessionId, file.image, file.data.bytes, file.data.contentType);
				for (const file of sounds) await store?.put(sessionId, file.file, file.data.bytes, file.data.contentType);
			}
		},
		...(options.llm ? { llm: options.llm } : {})
	});
	await recordPlay(app.control.db, row, viewer.id, options.now);
	return { ...started, preset: row };
}
