/**
 * Takedowns that hold. An administrator takes a preset down with a reason: it leaves the shelves and every link
 * (private again; only its author still opens it), its open reports are resolved, and a fingerprint of the world's
 * normalised text is kept, so the same world saved under another id (export → import → publish) cannot be shared
 * either. The author sees the reason and date and may appeal once per takedown; an administrator may lift it.
 */
import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { controlSchema, type ControlDrizzle } from '../db';
import { withoutControlCharacters } from '../validation';
import { isAuthor, type Viewer } from './access';
import { PresetError } from './errors';
import type { PresetRow } from './store';
import { contentOf } from './content';
import type { WorldPreset } from '../worlds';

const { presets, presetReports, presetTakedowns, presetVersions, users } = controlSchema;

const MAX_TEXT_CHARS = 2000;
const textSchema = (what: string) =>
	v.pipe(
		v.string(`Write ${what}.`),
		withoutControlCharacters(what),
		v.trim(),
		v.nonEmpty(`Write ${what}.`),
		v.maxLength(MAX_TEXT_CHARS, `${what} has at most ${MAX_TEXT_CHARS} characters.`)
	);
export const TakedownReasonSchema = textSchema('the reason');
export const AppealSchema = textSchema('the appeal');

/**
 * The world's text as one normalised string's SHA-256: every string in it (ids aside) in document order, NFKC,
 * lower case, letters and digits only. An export keeps all of them, so an import of the export fingerprints the same;
 * re-wording is not caught (a fingerprint is not a similarity search: the report queue is for that).
 */
export function worldFingerprint(content: unknown): string {
	const parts: string[] = [];
	const walk = (value: unknown, key: string | null): void => {
		if (typeof value === 'string') {
			if (key !== 'id')
				parts.push(
					value
						.normalize('NFKC')
						.toLowerCase()
						.replace(/[^\p{L}\p{N}]+/gu, '')
				);
		} else if (Array.isArray(value)) for (const item of value) walk(item, null);
		else if (value !== null && typeof value === 'object')
			for (const k of Object.keys(value).sort()) walk((value as Record<string, unknown>)[k], k);
	};
	walk(content, null);
	return createHash('sha256').update(parts.filter(Boolean).join('\u0000')).digest('hex');
}

/** The fingerprint of a preset's current version; null while it has none (a draft cannot be shared anyway). */
export async function fingerprintOf(db: ControlDrizzle, row: Pick<PresetRow, 'id' | 'currentVersion'>): Promise<string | null> {
	if (row.currentVersion === null) return null;
	const [version] = await db
		.select({ content: presetVersions.content })
		.from(presetVersions)
		.where(and(eq(presetVersions.presetId, row.id), eq(presetVersions.version, row.currentVersion)))
		.limit(1);
	return version ? worldFingerprint(JSON.parse(version.content)) : null;
}

/** Refuses sharing a world an administrator took down, under this id or any other (unless the takedown was lifted). */
export async function checkNotTakenDown(db: ControlDrizzle, row: PresetRow): Promise<void> {
	if (row.moderatedAt !== null)
		throw new PresetError('forbidden', 'An administrator took this preset down; it can only stay private.', {
			wording: { key: 'preset.moderatedNotice', params: {} }
		});
	const fingerprint = await fingerprintOf(db, row);
	if (fingerprint !== null) await refuseTakenDownText(db, fingerprint);
}

/**
 * Refuses a new version of a shared (public or unlisted) preset whose text is a world an administrator took down:
 * otherwise a world shared with harmless text could be turned into the taken-down one by saving.
 */
export async function checkSharedVersion(db: ControlDrizzle, row: PresetRow, preset: WorldPreset): Promise<void> {
	if (row.visibility !== 'private') await refuseTakenDownText(db, worldFingerprint(contentOf(preset)));
}

async function refuseTakenDownText(db: ControlDrizzle, fingerprint: string): Promise<void> {
	const [blocked] = await db
		.select({ id: presetTakedowns.id })
		.from(presetTakedowns)
		.where(and(eq(presetTakedowns.fingerprint, fingerprint), isNull(presetTakedowns.liftedAt)))
		.limit(1);
	if (blocked)
		throw new PresetError('forbidden', 'An administrator took this world down; it cannot be shared again, under any name.', {
			wording: { key: 'preset.copyTakenDown', params: {} }
		});
}

/** Takes the preset down (see the file's comment). Official presets cannot be. Returns the row as it was. */
export async function takeDown(
	db: ControlDrizzle,
	presetId: string,
	opts: { reason: string; adminId: string; now?: number }
): Promise<PresetRow> {
	const now = opts.now ?? Date.now();
	const [row] = await db
		.select()
		.from(presets)
		.where(and(eq(presets.id, presetId), eq(presets.official, false)))
		.limit(1);
	if (!row) throw new PresetError('not_found', 'No such preset (official presets cannot be taken down).');
	const fingerprint = (await fingerprintOf(db, row)) ?? worldFingerprint({ title: row.title, tagline: row.tagline });
	await db.batch([
		db.update(presets).set({ moderatedAt: now, visibility: 'private' }).where(eq(presets.id, presetId)),
		db
			.insert(presetTakedowns)
			.values({ presetId, authorId: row.authorId, fingerprint, reason: opts.reason, adminId: opts.adminId, at: now }),
		db
			.update(presetReports)
			.set({ resolvedAt: now, resolution: 'unlisted' })
			.where(and(eq(presetReports.presetId, presetId), isNull(presetReports.resolvedAt)))
	]);
	return row;
}

/** Lifts the preset's takedowns: it may be shared again, and so may copies of its world. */
export async function liftTakedown(db: ControlDrizzle, presetId: string, now = Date.now()): Promise<PresetRow> {
	const [row] = await db.select().from(presets).where(eq(presets.id, presetId)).limit(1);
	if (!row) throw new PresetError('not_found', 'No such preset.');
	await db.batch([
		db.update(presets).set({ moderatedAt: null }).where(eq(presets.id, presetId)),
		db
			.update(presetTakedowns)
			.set({ liftedAt: now })
			.where(and(eq(presetTakedowns.presetId, presetId), isNull(presetTakedowns.liftedAt)))
	]);
	return row;
}

export interface TakedownView {
	reason: string;
	at: number;
	appeal: string | null;
	appealAt: number | null;
}

/** The takedown in force on the preset, as its author sees it; null when there is none. */
export async function currentTakedown(db: ControlDrizzle, presetId: string): Promise<TakedownView | null> {
	const [row] = await db
		.select({ reason: presetTakedowns.reason, at: presetTakedowns.at, appeal: presetTakedowns.appeal, appealAt: presetTakedowns.appealAt })
		.from(presetTakedowns)
		.where(and(eq(presetTakedowns.presetId, presetId), isNull(presetTakedowns.liftedAt)))
		.orderBy(desc(presetTakedowns.at))
		.limit(1);
	return row ?? null;
}

/** The author's appeal against the takedown in force, once (a second one is refused: the admin has the first). */
export async function appealTakedown(db: ControlDrizzle, row: PresetRow, viewer: Viewer, text: string, now = Date.now()): Promise<void> {
	if (!isAuthor(row, viewer)) throw new PresetError('not_found', 'There is no preset at this address.');
	const updated = await db
		.update(presetTakedowns)
		.set({ appeal: text, appealAt: now })
		.where(and(eq(presetTakedowns.presetId, row.id), isNull(presetTakedowns.liftedAt), isNull(presetTakedowns.appeal)))
		.returning({ id: presetTakedowns.id });
	if (updated.length === 0) throw new PresetError('forbidden', 'There is no takedown to appeal, or you have appealed it already.');
}

export interface TakedownRow {
	presetId: string;
	title: string;
	authorName: string | null;
	reason: string;
	at: number;
	appeal: string | null;
	appealAt: number | null;
}

/** Takedowns in force, appealed ones first (they wait for an answer), then newest: the admin's list. */
export async function takedownsInForce(db: ControlDrizzle, limit = 100): Promise<TakedownRow[]> {
	const authorName = sql<string | null>`(SELECT ${users.name} FROM ${users} WHERE ${users.id} = ${presetTakedowns.authorId})`;
	return db
		.select({
			presetId: presetTakedowns.presetId,
			title: sql<string>`coalesce(${presets.title}, '')`,
			authorName,
			reason: presetTakedowns.reason,
			at: presetTakedowns.at,
			appeal: presetTakedowns.appeal,
			appealAt: presetTakedowns.appealAt
		})
		.from(presetTakedowns)
		.innerJoin(presets, eq(presets.id, presetTakedowns.presetId))
		.where(and(isNull(presetTakedowns.liftedAt), isNotNull(presets.moderatedAt)))
		.orderBy(sql`${presetTakedowns.appeal} IS NULL`, desc(presetTakedowns.at))
		.limit(limit);
}
