/**
 * What one member's event stream shows of other members' whispers (issue 25): that the turn was accepted (its line
 * reads "<character> whispers to the GM" in the reader's language), started and ended; nothing it streamed, staged or
 * replied. The log itself knows which turns are whispers: their `turn.accepted` says who whispered, and every
 * later event of the turn carries its id. A stream learns of whispers as it reads their `turn.accepted`; one
 * that resumes inside a turn first looks up the turns it joins in the middle of (`whisperView`).
 */
import { and, eq, gt, lte } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { sessionSchema, type SessionExec } from '../db';
import { parseSessionEvent, type LoggedEvent, type SessionEvent } from '../../types/events';
import type { Language } from '../../types/settings';
import { translate } from '../../i18n/all-languages';

/** Who reads: a member (user id) and their UI language, in which someone else's whisper is worded. */
export interface Reader {
	id: string;
	language: Language;
}

/** What someone else's whispered line reads as: "<character> whispers to the GM", in the reader's language. */
export function whisperedLine(as: string, language: Language): string {
	return translate(language, 'whisper.toGm', { name: as });
}

const { events } = sessionSchema;

/** Events that only follow a turn's reply as it is written: nothing of them reaches the other members. */
const REPLY_EVENTS: ReadonlySet<SessionEvent['type']> = new Set(['text.delta', 'text.withdrawn', 'stage.staged', 'tool.activity']);

/** An event as `viewer` may see it: unchanged, emptied of someone else's whisper, or null (not sent at all). */
export type EventView = (e: LoggedEvent) => LoggedEvent | null;

/** Someone else's whisper's event, as the reader gets it. */
function redacted(event: SessionEvent, reader: Reader): SessionEvent | null {
	if (REPLY_EVENTS.has(event.type)) return null;
	switch (event.type) {
		case 'turn.accepted':
			return { ...event, input: whisperedLine(event.whisper?.as ?? '', reader.language) };
		case 'turn.undone':
			return { ...event, input: '' };
		case 'turn.committed': {
			const { choices: _choices, ...rest } = event;
			return { ...rest, reply: '' };
		}
		default:
			return event;
	}
}

/** The whisperer of `event` when it is a whisper's `turn.accepted` that `viewer` did not send. */
function othersWhisper(event: SessionEvent, viewer: string): string | undefined {
	return event.type === 'turn.accepted' && event.whisper && event.whisper.by !== viewer ? event.turnId : undefined;
}

/**
 * The view of the stream of `viewer` (a user id) that starts after event `cursor`: the whispers it would join
 * in the middle of (accepted at or before the cursor, with events after it) are read now, in one query whose
 * cost follows the rows the stream is about to send; later ones it learns from their `turn.accepted`.
 */
export async function whisperView(exec: SessionExec, reader: Reader, cursor: number): Promise<EventView> {
	const viewer = reader.id;
	const accepted = alias(events, 'accepted');
	const joined = await exec
		.selectDistinct({ data: accepted.data })
		.from(events)
		.innerJoin(accepted, and(eq(accepted.turnId, events.turnId), eq(accepted.type, 'turn.accepted'), lte(accepted.id, cursor)))
		.where(gt(events.id, cursor));
	const hidden = new Set<string>();
	for (const row of joined) {
		const event = parseSessionEvent(row.data);
		const turnId = event && othersWhisper(event, viewer);
		if (turnId) hidden.add(turnId);
	}
	return ({ id, event }) => {
		const whisper = othersWhisper(event, viewer);
		if (whisper) hidden.add(whisper);
		if (!('turnId' in event) || !hidden.has(event.turnId)) return { id, event };
		const shown = redacted(event, reader);
		return shown && { id, event: shown };
	};
}
