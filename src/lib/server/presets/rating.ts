/**
 * Who sees a world rated mature: its author always (and an administrator, to review reports); anyone
 * else only when the operator allows mature worlds (`KANTERA_MATURE_CONTENT`) and they opted in on
 * their account page. For everyone else a mature preset is "not found", like a private one, and the
 * shelves and search leave it out.
 */
import { showsMature } from '../auth';
import type { Config } from '../config';
import type { ControlDrizzle } from '../db';
import { isAuthor, type Viewer } from './access';
import { PresetError } from './errors';
import type { PresetRow } from './store';

export async function matureShownTo(
	db: ControlDrizzle,
	config: Pick<Config, 'presets'>,
	viewerId: string | null | undefined
): Promise<boolean> {
	return config.presets.matureContent && (await showsMature(db, viewerId));
}

/** Refuses a mature preset to a viewer who may not see it, as not_found (the same answer as no preset). */
export async function checkRating(
	db: ControlDrizzle,
	config: Pick<Config, 'presets'>,
	row: Pick<PresetRow, 'rating' | 'authorId'>,
	viewer: Viewer | null
): Promise<void> {
	if (row.rating !== 'mature' || isAuthor(row, viewer) || viewer?.isAdmin === true) return;
	if (!(await matureShownTo(db, config, viewer?.id))) throw new PresetError('not_found', 'There is no preset at this address.');
}
