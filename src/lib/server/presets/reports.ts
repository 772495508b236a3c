/**
 * Moderation basics: any signed-in user may report a preset they can see and did not write (one
 * open report per user and preset; reporting again updates the reason). An administrator lists the
 * open reports and either takes the preset down (takedowns.ts) or dismisses them. Sessions
 * already played from it are not touched.
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { controlSchema, type ControlDrizzle } from '../db';
import { isAuthor, type Viewer } from './access';
import { PresetError } from './errors';
import { withoutControlCharacters } from '../validation';
import type { PresetRow } from './store';

const { presets, presetReports, users } = controlSchema;

const MAX_REASON_CHARS = 1000;

export const ReportReasonSchema = v.pipe(
	v.string('Say why you report this preset.'),
	withoutControlCharacters('The reason'),
	v.trim(),
	v.nonEmpty('Say why you report this preset.'),
	v.maxLength(MAX_REASON_CHARS, `A reason has at most ${MAX_REASON_CHARS} characters.`)
);

export async function reportPreset(db: ControlDrizzle, row: PresetRow, viewer: Viewer, reason: string, now = Date.now()): Promise<void> {
	if (row.official) throw new PresetError('read_only', 'Official presets ship with Kantera; tell the operator of this server instead.');
	if (isAuthor(row, viewer)) throw new PresetError('forbidden', 'You cannot report your own preset.');
	await db
		.insert(presetReports)
		.values({ presetId: row.id, reporterId: viewer.id, reason, createdAt: now })
		.onConflictDoUpdate({
			target: [presetReports.presetId, presetReports.reporterId],
			set: { reason, createdAt: now, resolvedAt: null, resolution: null }
		});
}

export interface OpenReport {
	id: number;
	presetId: string;
	presetTitle: string;
	presetVisibility: PresetRow['visibility'];
	moderated: boolean;
	authorName: string | null;
	reporterName: string;
	reason: string;
	createdAt: number;
}

/** Unresolved reports, oldest first (the queue an administrator works through). */
export async function openReports(db: ControlDrizzle, limit = 200): Promise<OpenReport[]> {
	const author = sql<string | null>`(SELECT ${users.name} FROM ${users} WHERE ${users.id} = ${presets.authorId})`;
	return db
		.select({
			id: presetReports.id,
			presetId: presetReports.presetId,
			presetTitle: presets.title,
			presetVisibility: presets.visibility,
			moderated: sql<boolean>`${presets.moderatedAt} IS NOT NULL`.mapWith(Boolean),
			authorName: author,
			reporterName: users.name,
			reason: presetReports.reason,
			createdAt: presetReports.createdAt
		})
		.from(presetReports)
		.innerJoin(presets, eq(presets.id, presetReports.presetId))
		.innerJoin(users, eq(users.id, presetReports.reporterId))
		.where(isNull(presetReports.resolvedAt))
		.orderBy(asc(presetReports.createdAt), asc(presetReports.id))
		.limit(limit);
}

/** Resolves the preset's open reports without acting on it. */
export async function dismissReports(db: ControlDrizzle, presetId: string, now = Date.now()): Promise<void> {
	await db
		.update(presetReports)
		.set({ resolvedAt: now, resolution: 'dismissed' })
		.where(and(eq(presetReports.presetId, presetId), isNull(presetReports.resolvedAt)));
}
