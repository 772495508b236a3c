/**
 * What the play screen needs on load, read from a session's database in one place: the latest page
 * of the play log (`logPage`: messages, their stage cues, the stage as the page begins, the images),
 * the turn in flight (with the text it has streamed so far) and how the last turn ended.
 *
 * Everything is read against one event cursor (`lastEventId`): the client opens the event stream
 * after it, so text streamed before the cursor is in `activeTurn.text` and text after it arrives as
 * events — each piece exactly once, however the reload falls.
 */
import type { SessionExec } from '../db';
import { lastEventId, streamedThrough, whisperedLine, type Reader } from '../events';
import { activeTurn, hiddenFrom, lastPlayerTurn, queuedLines, type TurnRow } from '../turn';
import type { ActiveTurn, FinishedTurn, PlayView, QueuedLine } from '../../play/types';
import { choices, listSounds, titleCard } from '../stage';
import { imageUrl } from '../images';
import { logPage } from './log';

/** Messages the screen starts with; the backlog pages further back through the API. */
export const PLAY_MESSAGE_WINDOW = 50;

/** What a running turn has streamed up to the cursor: its text, and the stage directions it staged. */
async function streamed(exec: SessionExec, turnId: string, through: number): Promise<Pick<ActiveTurn, 'text' | 'staged'>> {
	let text = '';
	const staged: ActiveTurn['staged'] = { cues: [], places: [] };
	for (const event of await streamedThrough(exec, turnId, through)) {
		if (event.type === 'text.delta') text += event.text;
		// The GM reconsidered: what stays on screen is the withdrawal's text.
		else if (event.type === 'text.withdrawn') text = event.text;
		else {
			staged.cues.push(...event.cues);
			staged.places.push(...event.places);
		}
	}
	return { text, staged };
}

async function turnsOfInterest(
	exec: SessionExec,
	cursor: number,
	reader: Reader,
	now: number
): Promise<{ activeTurn: ActiveTurn | null; lastTurn: FinishedTurn | null }> {
	// The oldest: at a shared table lines may wait, queued, behind the turn in flight.
	const active = await activeTurn(exec, 'oldest');
	// A running turn whose lease ran out belongs to a runner that died: it is interrupted, whatever the row says yet.
	const stale = active?.status === 'running' && active.leaseExpiresAt !== null && active.leaseExpiresAt < now;
	if (active && !stale && (active.status === 'accepted' || active.status === 'running')) {
		// Someone else's whisper in flight: the screen shows that the GM works, nothing it streamed.
		const hidden = hiddenFrom(active.whisperBy, reader.id);
		return {
			activeTurn: {
				id: active.id,
				input: hidden ? whisperedLine(active.whisperAs ?? '', reader.language) : active.input,
				status: active.status,
				...(hidden ? { text: '', staged: { cues: [], places: [] } } : await streamed(exec, active.id, cursor)),
				cancelRequested: active.cancelRequested,
				...whisperOf(active)
			},
			lastTurn: null
		};
	}
	const last = await lastPlayerTurn(exec);
	if (!last) return { activeTurn: null, lastTurn: null };
	// lastPlayerTurn never returns a merged line (it is part of the turn that answered it).
	const status = last.status === 'accepted' || last.status === 'running' || last.status === 'merged' ? 'interrupted' : last.status;
	// A failed turn is told by its class and error id: the `error` column never reaches the page.
	const failure = status === 'failed' ? { reason: last.failureReason ?? 'internal', errorId: last.errorId ?? 'unknown' } : null;
	const input = hiddenFrom(last.whisperBy, reader.id) ? whisperedLine(last.whisperAs ?? '', reader.language) : last.input;
	return { activeTurn: null, lastTurn: { id: last.id, input, status, failure, stopped: last.stopped, ...whisperOf(last) } };
}

function whisperOf(t: TurnRow): { whisper?: { by: string; as: string } } {
	return t.whisperBy === null ? {} : { whisper: { by: t.whisperBy, as: t.whisperAs ?? '' } };
}

/** The lines waiting behind the turn in flight (the first waiting line is that turn when it has not started). */
async function queued(exec: SessionExec): Promise<QueuedLine[]> {
	const waiting = await queuedLines(exec);
	const active = waiting.length > 0 ? await activeTurn(exec, 'oldest') : undefined;
	return (active?.id === waiting[0]?.id ? waiting.slice(1) : waiting).map((l) => ({ id: l.id, input: l.input, sender: l.sender }));
}

/** Everything the play page renders first, as `reader` may see it. */
export async function loadPlayView(exec: SessionExec, sessionId: string, reader: Reader, now = Date.now()): Promise<PlayView> {
	// The cursor first: whatever is read after it may include later events, but the client resumes after it.
	const cursor = await lastEventId(exec);
	const log = await logPage(exec, sessionId, { limit: PLAY_MESSAGE_WINDOW }, reader);
	// A menu belongs to the newest GM message: once the player answered it, it is not shown again.
	const offer = await choices.latest(exec);
	const newestGm = log.messages.findLast((m) => m.role === 'gm');
	return {
		log,
		...(await turnsOfInterest(exec, cursor, reader, now)),
		queued: await queued(exec),
		lastEventId: cursor,
		choices: offer && newestGm?.id === offer.messageId ? offer : null,
		titleCard: await titleCard(exec),
		sounds: (await listSounds(exec)).map((s) => ({ kind: s.kind, name: s.name, url: imageUrl(sessionId, s.file) }))
	};
}
