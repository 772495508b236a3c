/**
 * Changing who can see a preset. Private: the author only. Unlisted: anyone with the link (its id
 * is 100 random bits), never on a shelf. Public: on the shelves. Going public needs a saved version
 * (the schema already requires a title, a tagline and an NPC with an appearance of every version),
 * is refused for a preset an administrator took down (public or unlisted, and for any copy of its world:
 * takedowns.ts), and is rate-limited per user.
 */
import { and, asc, count, eq, gte } from 'drizzle-orm';
import { controlSchema, type ControlDrizzle } from '../db';
import { PresetError } from './errors';
import { checkNotTakenDown } from './takedowns';
import type { PresetRow } from './store';

const { presets, presetPublications } = controlSchema;

export type Visibility = (typeof controlSchema.PRESET_VISIBILITIES)[number];

/** The rolling window of the publishing rate limit. */
const PUBLISH_WINDOW_MS = 24 * 60 * 60 * 1000;

export async function setVisibility(
	db: ControlDrizzle,
	row: PresetRow,
	visibility: Visibility,
	opts: { publishPerDay: number; now?: number }
): Promise<PresetRow> {
	const now = opts.now ?? Date.now();
	if (visibility === row.visibility) return row;
	if (visibility !== 'private' && row.currentVersion === null) {
		throw new PresetError('not_playable', 'Save the preset as a complete, valid world before sharing it: a draft cannot be played.');
	}
	if (visibility !== 'private') await checkNotTakenDown(db, row);
	const publish = visibility === 'public' && row.authorId !== null && opts.publishPerDay > 0 ? row.authorId : undefined;
	if (publish !== undefined) await checkPublishRate(db, publish, opts.publishPerDay, now);
	const update = db
		.update(presets)
		.set({ visibility, updatedAt: now, ...(visibility === 'public' && row.publishedAt === null ? { publishedAt: now } : {}) })
		.where(eq(presets.id, row.id))
		.returning();
	const [updated] =
		publish === undefined
			? await update
			: (await db.batch([db.insert(presetPublications).values({ userId: publish, presetId: row.id, at: now }), update]))[1];
	if (!updated) throw new PresetError('not_found', 'No such preset.');
	return updated;
}

/** Refuses a publication over the user's limit in the rolling window, saying when the next one is allowed. */
async function checkPublishRate(db: ControlDrizzle, userId: string, limit: number, now: number): Promise<void> {
	const recent = and(eq(presetPublications.userId, userId), gte(presetPublications.at, now - PUBLISH_WINDOW_MS));
	const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(presetPublications).where(recent);
	if (n < limit) return;
	const [oldest] = await db
		.select({ at: presetPublications.at })
		.from(presetPublications)
		.where(recent)
		.orderBy(asc(presetPublications.at))
		.limit(1);
	const retryAt = new Date((oldest?.at ?? now) + PUBLISH_WINDOW_MS);
	throw new PresetError(
		'rate_limited',
		`You have made ${n} presets public in the last 24 hours, the most allowed. Try again after ${retryAt.toISOString()}.`,
		{ retryAt }
	);
}
