/**
 * A preset's version history, for its author only: the versions kept (date, note, who saved it),
 * one version read-only, what changed from the version before it, and restoring an old version as
 * a new one (history is never rewritten: the versions after it stay). For anyone else the history,
 * like a draft, does not exist: "not found", even on a public preset.
 */
import { and, desc, eq } from 'drizzle-orm';
import { controlSchema, type ControlDrizzle } from '../db';
import { diffContent, type ContentChange } from '../../presets/diff';
import type { Viewer } from './access';
import { isAuthor } from './access';
import { contentOf } from './content';
import { PresetError } from './errors';
import { getPresetRow, loadVersion, saveVersion, type PresetRow } from './store';
import { checkSharedVersion } from './takedowns';
import type { PresetDeps } from './service';

const { presetVersions, users } = controlSchema;

export interface VersionInfo {
	version: number;
	createdAt: string;
	note: string;
	/** Who saved it (null: unknown, or an account since deleted). */
	savedBy: string | null;
	current: boolean;
}

/** What a restore writes as the new version's note. */
export const restoredNote = (version: number) => `Restored from version ${version}.`;
export const MAX_VERSION_NOTE_CHARS = 200;

const NOT_FOUND = 'There is no preset at this address.';

/** The viewer's own author preset (not official); not_found for everyone else, whatever the preset's visibility. */
async function authorsPreset(db: ControlDrizzle, id: unknown, viewer: Viewer): Promise<PresetRow> {
	const row = await getPresetRow(db, id);
	if (!row || row.official || !isAuthor(row, viewer)) throw new PresetError('not_found', NOT_FOUND);
	return row;
}

function versionNumber(raw: unknown): number {
	const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
	if (!Number.isSafeInteger(n) || n < 1) throw new PresetError('not_found', 'There is no such version of this preset.');
	return n;
}

async function versionRows(db: ControlDrizzle, presetId: string) {
	return db
		.select({ version: presetVersions.version, createdAt: presetVersions.createdAt, note: presetVersions.note, savedBy: users.name })
		.from(presetVersions)
		.leftJoin(users, eq(users.id, presetVersions.savedBy))
		.where(eq(presetVersions.presetId, presetId))
		.orderBy(desc(presetVersions.version));
}

export async function listVersions(app: Pick<PresetDeps, 'control'>, viewer: Viewer, id: unknown): Promise<VersionInfo[]> {
	const row = await authorsPreset(app.control.db, id, viewer);
	const rows = await versionRows(app.control.db, row.id);
	return rows.map((r) => ({
		version: r.version,
		createdAt: new Date(r.createdAt).toISOString(),
		note: r.note,
		savedBy: r.savedBy,
		current: r.version === row.currentVersion
	}));
}

async function keptVersion(db: ControlDrizzle, row: PresetRow, version: number) {
	const [found] = await db
		.select({ version: presetVersions.version })
		.from(presetVersions)
		.where(and(eq(presetVersions.presetId, row.id), eq(presetVersions.version, version)))
		.limit(1);
	if (!found) throw new PresetError('not_found', 'There is no such version of this preset (only the latest ones are kept).');
	return contentOf(await loadVersion(db, row.id, version));
}

export interface VersionView {
	info: VersionInfo;
	/** The content as stored (WorldPresetSchema's shape without `id`). */
	content: ReturnType<typeof contentOf>;
	/** The version it is compared with: the one kept just before it (null for the first one kept). */
	previous: number | null;
	changes: ContentChange[];
}

/** One version, read-only, with what changed since the version kept before it. */
export async function viewVersion(
	app: Pick<PresetDeps, 'control'>,
	viewer: Viewer,
	id: unknown,
	rawVersion: unknown
): Promise<VersionView> {
	const row = await authorsPreset(app.control.db, id, viewer);
	const version = versionNumber(rawVersion);
	const infos = await listVersions(app, viewer, row.id);
	const at = infos.findIndex((i) => i.version === version);
	const info = infos[at];
	if (!info) throw new PresetError('not_found', 'There is no such version of this preset (only the latest ones are kept).');
	const content = await keptVersion(app.control.db, row, version);
	const previous = infos[at + 1]?.version ?? null;
	const before = previous === null ? null : await keptVersion(app.control.db, row, previous);
	return { info, content, previous, changes: before === null ? [] : diffContent(before, content) };
}

/**
 * Saves an old version's content as the newest version (its note says which). Nothing is written
 * when it is already the current content: restoring it would add a copy of the same thing.
 */
export async function restoreVersion(app: PresetDeps, viewer: Viewer, id: unknown, rawVersion: unknown): Promise<PresetRow> {
	const row = await authorsPreset(app.control.db, id, viewer);
	const version = versionNumber(rawVersion);
	await keptVersion(app.control.db, row, version);
	const preset = await loadVersion(app.control.db, row.id, version);
	// A shared preset cannot be brought back to a text an administrator took down since.
	await checkSharedVersion(app.control.db, row, preset);
	const updated = await saveVersion(app.control.db, row, preset, Date.now(), { note: restoredNote(version), savedBy: viewer.id });
	await app.covers.order(updated.id, preset.opening.scene);
	return updated;
}
