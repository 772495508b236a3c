/**
 * The player-visible records the play page renders into its drawers on the server (state, the
 * latest journal entries, the documents and the one being read or edited), in the same shapes the
 * API answers, so the drawers read without JavaScript and the browser's panels take over from them.
 */
import { documents, isRecordError, state } from '../records';
import type { SessionExec } from '../db';
import type { DocumentDto, RecordsView } from '../../types/api';
import { documentDto, documentInfoDto } from './dto';
import { JOURNAL_RECENT_DEFAULT_PAGE, journalRecent } from './panels';

export async function recordsView(exec: SessionExec, docId: number | undefined): Promise<RecordsView> {
	const snapshot = await state.get(exec);
	const list = await documents.list(exec, { includeGmOnly: false });
	let document: DocumentDto | null = null;
	if (docId !== undefined && list.some((d) => d.id === docId)) {
		try {
			document = documentDto(await documents.get(exec, docId));
		} catch (err) {
			if (!isRecordError(err, 'not_found')) throw err;
		}
	}
	return {
		state: { state: snapshot.doc, version: snapshot.version },
		journal: await journalRecent(exec, { limit: JOURNAL_RECENT_DEFAULT_PAGE }),
		documents: list.map(documentInfoDto),
		document
	};
}
