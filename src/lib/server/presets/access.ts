/**
 * Who may see and change a preset. One rule set, used by every page, API route and action:
 * - the author sees and changes their own preset, whatever its state;
 * - official presets are public to everyone and changed by no one (they ship with the app);
 * - others see an unlisted or public preset that has a saved version; a private one, a draft, or
 *   one an administrator took down is "not found" for them, exactly like no preset at all
 *   (an administrator still sees a taken-down preset, to review the reports).
 */
import type { ControlDrizzle } from '../db';
import { PresetError } from './errors';
import { getPresetRow, type PresetRow } from './store';

/** The asking user (null: signed out). */
export interface Viewer {
	readonly id: string;
	readonly isAdmin: boolean;
}

type AccessFields = Pick<PresetRow, 'official' | 'authorId' | 'visibility' | 'moderatedAt' | 'currentVersion'>;

export function isAuthor(row: Pick<PresetRow, 'authorId'>, viewer: Viewer | null): boolean {
	return viewer !== null && row.authorId !== null && row.authorId === viewer.id;
}

function canView(row: AccessFields, viewer: Viewer | null): boolean {
	if (row.official || isAuthor(row, viewer)) return true;
	// A takedown makes the preset private; the administrators still read it, to answer an appeal.
	if (row.moderatedAt !== null) return viewer?.isAdmin === true;
	return row.visibility !== 'private' && row.currentVersion !== null;
}

/**
 * Whether a session this viewer starts from the preset keeps the preset's documents from them
 * (names only): everyone but the author, except for official worlds, written for players to read.
 */
export function isSealedFor(row: Pick<PresetRow, 'official' | 'authorId'>, viewer: Viewer): boolean {
	return !row.official && !isAuthor(row, viewer);
}

const NO_SUCH_PRESET = 'There is no preset at this address.';

/** The preset if this viewer may see it; PresetError('not_found') otherwise. */
export async function visiblePreset(db: ControlDrizzle, id: unknown, viewer: Viewer | null): Promise<PresetRow> {
	const row = await getPresetRow(db, id);
	if (!row || !canView(row, viewer)) throw new PresetError('not_found', NO_SUCH_PRESET);
	return row;
}

/** The viewer's own (non-official) preset, for a change: not_found if invisible, forbidden or read_only otherwise. */
export async function ownPreset(db: ControlDrizzle, id: unknown, viewer: Viewer): Promise<PresetRow> {
	const row = await visiblePreset(db, id, viewer);
	if (row.official) throw new PresetError('read_only', 'Official presets ship with Kantera and cannot be changed.');
	if (!isAuthor(row, viewer)) throw new PresetError('forbidden', 'Only its author can change a preset.');
	return row;
}
