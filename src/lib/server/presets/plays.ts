/**
 * Who played which preset, for the counts on a preset page and the Popular shelf: one row per
 * (preset, player) with the first and last time they started a session from it. The author's own
 * plays are not counted. `players_30d` (distinct players in the last 30 days) is updated for the
 * preset at each play and recomputed for all presets when it may have decayed (`refreshPopularity`).
 */
import { eq, gt, sql } from 'drizzle-orm';
import { controlSchema, type ControlDrizzle } from '../db';
import type { PresetRow } from './store';

const { presets, presetPlayers, galleryMeta } = controlSchema;

/** Popular counts players of the last 30 days. */
export const POPULAR_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
/** How stale the decaying 30-day counts may get before a shelf read recomputes them. */
const POPULARITY_REFRESH_MS = 10 * 60 * 1000;
const POPULARITY_KEY = 'popularity_refreshed_at';

function recentPlayers(presetId: string, cut: number) {
	return sql<number>`(SELECT count(*) FROM ${presetPlayers} WHERE ${presetPlayers.presetId} = ${presetId} AND ${presetPlayers.lastPlayedAt} >= ${cut})`;
}

/** Records that `userId` started a session from the preset (not counted for its author). */
export async function recordPlay(
	db: ControlDrizzle,
	row: Pick<PresetRow, 'id' | 'authorId'>,
	userId: string,
	now = Date.now()
): Promise<void> {
	if (row.authorId === userId) return;
	await db.batch([
		db
			.insert(presetPlayers)
			.values({ presetId: row.id, userId, firstPlayedAt: now, lastPlayedAt: now })
			.onConflictDoUpdate({ target: [presetPlayers.presetId, presetPlayers.userId], set: { lastPlayedAt: now } }),
		db
			.update(presets)
			.set({ players30d: recentPlayers(row.id, now - POPULAR_WINDOW_MS) })
			.where(eq(presets.id, row.id))
	]);
}

/**
 * Recomputes every played preset's 30-day player count, at most once per POPULARITY_REFRESH_MS
 * across processes (the first caller to move the timestamp does it). Returns whether it ran.
 */
export async function refreshPopularity(db: ControlDrizzle, now = Date.now(), opts: { force?: boolean } = {}): Promise<boolean> {
	const due = now - POPULARITY_REFRESH_MS;
	// A read first: the shelves call this on every page, and nearly always there is nothing to do.
	const [last] = await db.select({ value: galleryMeta.value }).from(galleryMeta).where(eq(galleryMeta.key, POPULARITY_KEY));
	if (!opts.force && last !== undefined && last.value > due) return false;
	const claimed = await db
		.insert(galleryMeta)
		.values({ key: POPULARITY_KEY, value: now })
		.onConflictDoUpdate({
			target: galleryMeta.key,
			set: { value: now },
			...(opts.force ? {} : { setWhere: sql`${galleryMeta.value} <= ${due}` })
		})
		.returning({ value: galleryMeta.value });
	if (claimed.length === 0) return false;
	const cut = now - POPULAR_WINDOW_MS;
	await db
		.update(presets)
		.set({
			players30d: sql`(SELECT count(*) FROM ${presetPlayers} WHERE ${presetPlayers.presetId} = ${presets.id} AND ${presetPlayers.lastPlayedAt} >= ${cut})`
		})
		.where(gt(presets.playersTotal, 0));
	return true;
}
