/**
 * Remix: a signed-in user copies a world whose author allows it into a private draft of their own.
 * The copy keeps where it came from (`remixOf`: the original's id, title and author), shown on its
 * page and carried by its exports; it does not copy the original author's own notes or what a card
 * import kept for them, nor the permission to remix (the new author decides). Refused: a preset the
 * viewer cannot see or may not see rated mature (404), one whose author does not allow it (403), and
 * one taken down, or a copy of a world taken down (403; takedowns.ts).
 */
import { formFromContent } from '../../presets/form';
import type { Viewer } from './access';
import { isAuthor, visiblePreset } from './access';
import { contentOf } from './content';
import { PresetError } from './errors';
import { checkRating } from './rating';
import { checkNotTakenDown } from './takedowns';
import { authorNameOf, createDraftPreset, loadVersion, type PresetRow } from './store';
import type { PresetDeps } from './service';

export async function remixPreset(app: PresetDeps, viewer: Viewer, id: unknown, now = Date.now()): Promise<PresetRow> {
	const db = app.control.db;
	const row = await visiblePreset(db, id, viewer);
	await checkRating(db, app.config, row, viewer);
	if (row.official || row.currentVersion === null) throw new PresetError('forbidden', 'This world cannot be remixed.');
	const original = await loadVersion(db, row.id, row.currentVersion);
	if (!original.remixAllowed && !isAuthor(row, viewer))
		throw new PresetError('forbidden', 'The author of this world does not allow remixes.');
	await checkNotTakenDown(db, row);
	const author = (await authorNameOf(db, row)) ?? '';
	const { notes: _notes, card: _card, ...content } = contentOf(original);
	const form = formFromContent({
		...content,
		remixAllowed: false,
		remixOf: { id: row.id, title: original.title.slice(0, 200), author: author.slice(0, 200) }
	});
	return createDraftPreset(db, viewer.id, form, now);
}
