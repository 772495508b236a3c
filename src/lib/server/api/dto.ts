/**
 * Rows to API shapes. Each function lists the fields that may leave the server, so a new column
 * (a ref, a lease owner, a GM-only flag) stays inside until someone adds it here on purpose.
 */
import type { PlaySession } from '../sessions';
import { failureMessage, hiddenFrom, type TurnRow } from '../turn';
import { whisperedLine, type Reader } from '../events';
import type { journal, documents } from '../records';
import type { DocumentDto, DocumentInfoDto, JournalEntryDto, SessionSummaryDto, TurnDto } from '../../types/api';

const iso = (ms: number) => new Date(ms).toISOString();

export function sessionSummaryDto(s: PlaySession): SessionSummaryDto {
	return { id: s.id, title: s.title, language: s.language, createdAt: s.createdAt.toISOString(), updatedAt: s.updatedAt.toISOString() };
}

/** The turn as `reader` may read it: someone else's whisper without its answer, its line worded for the reader. */
export function turnDto(t: TurnRow, reader: Reader): TurnDto {
	const hidden = hiddenFrom(t.whisperBy, reader.id);
	// A failed turn is told by its class and error id, in fixed words; the provider's message stays in the log.
	const failure = t.status === 'failed' ? { reason: t.failureReason ?? 'internal', errorId: t.errorId ?? 'unknown' } : undefined;
	const error = failure
		? failureMessage(failure)
		: t.status === 'interrupted' || t.status === 'cancelled'
			? (t.error ?? undefined)
			: undefined;
	return {
		turnId: t.id,
		status: t.status,
		input: hidden ? whisperedLine(t.whisperAs ?? '', reader.language) : t.input,
		...(t.status === 'committed' ? { reply: { text: hidden ? '' : (t.reply ?? '') } } : {}),
		...(error !== undefined ? { error } : {}),
		...(failure ? { failure } : {}),
		...(t.stopped !== null ? { stopped: t.stopped } : {}),
		cancelRequested: t.cancelRequested,
		...(t.mergedInto !== null ? { mergedInto: t.mergedInto } : {}),
		createdAt: iso(t.createdAt),
		...(t.finishedAt !== null ? { finishedAt: iso(t.finishedAt) } : {}),
		...(t.whisperBy !== null ? { whisper: { by: t.whisperBy, as: t.whisperAs ?? '' } } : {})
	};
}

export function journalEntryDto(e: journal.JournalEntry): JournalEntryDto {
	return { id: e.id, body: e.body, createdAt: iso(e.createdAt) };
}

export function documentInfoDto(d: documents.DocumentInfo): DocumentInfoDto {
	// A GM-only document listed for the player at all is one whose title only they may see.
	return {
		id: d.id,
		title: d.title,
		createdAt: iso(d.createdAt),
		updatedAt: iso(d.updatedAt),
		...(d.gmOnly ? { sealed: true as const } : {})
	};
}

export function documentDto(d: documents.Document): DocumentDto {
	return { ...documentInfoDto(d), body: d.body };
}
