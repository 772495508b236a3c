/**
 * The official worlds as presets: read-only rows with their existing ids (`sword-and-sorcery`,
 * `iron-walkers`), public, authorless, playable in every language. Their content ships with the app
 * (worlds/content) and is read from there; the row holds what the gallery needs (counters,
 * favourites, search text in every language). Written at start-up, updated when a release changes
 * a title or tagline.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { controlSchema, type ControlDrizzle } from '../db';
import { getWorld, WORLD_IDS } from '../worlds';
import { LANGUAGES, type Language } from '../../types/settings';
import { searchTextOf } from './store';
import type { CoverRunner } from './covers';

const { presets } = controlSchema;

/** The official presets' content version: they change with a release, not by editing. */
export const OFFICIAL_VERSION = 1;
/** Official presets are listed first, in this order; their row's title is in this language. */
const ROW_LANGUAGE: Language = 'en';

export async function syncOfficialPresets(db: ControlDrizzle, now = Date.now()): Promise<void> {
	const existing = new Set(
		(
			await db
				.select({ id: presets.id })
				.from(presets)
				.where(inArray(presets.id, [...WORLD_IDS]))
		).map((r) => r.id)
	);
	for (const id of WORLD_IDS) {
		const texts = LANGUAGES.map((language) => getWorld(id, language));
		const row = getWorld(id, ROW_LANGUAGE);
		const searchText = searchTextOf(...texts.flatMap((w) => [w.title, w.tagline]));
		if (existing.has(id)) {
			// Only when a release changed them: otherwise the row and the search index are left alone. (An
			// upsert would do the same, but it takes an AUTOINCREMENT number at every start even when it
			// only updates, so the control database would change on every start.)
			await db
				.update(presets)
				.set({ title: row.title, tagline: row.tagline, searchText })
				.where(
					and(
						eq(presets.id, id),
						sql`(${presets.searchText} IS NOT ${searchText} OR ${presets.title} IS NOT ${row.title} OR ${presets.tagline} IS NOT ${row.tagline})`
					)
				);
			continue;
		}
		await db.insert(presets).values({
			id,
			official: true,
			visibility: 'public',
			title: row.title,
			tagline: row.tagline,
			searchText,
			currentVersion: OFFICIAL_VERSION,
			createdAt: now,
			updatedAt: now
		});
	}
}

/**
 * Records the official presets' cover orders (their opening scene, described in English) at start-up;
 * nothing changes when they are already drawn. The runner starts them when a page first shows covers.
 */
export async function orderOfficialCovers(covers: Pick<CoverRunner, 'order'>): Promise<void> {
	for (const id of WORLD_IDS) await covers.order(id, getWorld(id, ROW_LANGUAGE).opening.scene, { kick: false });
}
