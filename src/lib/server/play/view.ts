/**
 * What the play screen needs on load, read from a session's database in one place: the tail of the
 * play log with its stage cues, the stage as it stood before that tail, the images of characters and
 * places, the turn in flight (with the text it has streamed so far) and how the last turn ended.
 *
 * Everything is read against one event cursor (`lastEventId`): the client opens the event stream
 * after it, so text streamed before the cursor is in `activeTurn.text` and text after it arrives as
 * events — each piece exactly once, however the reload falls.
 */
import { and, asc, desc, eq, inArray, lte, type SQL } from 'drizzle-orm';
import { sessionSchema, type SessionExec } from '../db';
import * as records from '../records';
import * as stage from '../stage';
import { imageUrl } from '../images/jobs';
import { lastEventId } from '../turn/events';
import { readCue } from '../../adv';
import type { ActiveTurn, FinishedTurn, ImageStatus, LogAfter, PlayCue, PlayMessage, PlayRole, PlayView, StageImage } from '../../play/types';

export type { ActiveTurn, FinishedTurn, ImageStatus, LogAfter, PlayCue, PlayMessage, PlayRole, PlayView, StageImage };

const { turns, events, stageCues, imageOrders } = sessionSchema;

/** Messages the screen starts with; the backlog pages further back through the API. */
export const PLAY_MESSAGE_WINDOW = 50;
/** Messages the "log after" read returns at most: one turn writes two or three. */
export const LOG_AFTER_LIMIT = 200;

function isPlayRole(role: string): role is PlayRole {
	return role === 'player' || role === 'gm';
}

function toPlayMessages(rows: readonly records.log.LogMessage[]): PlayMessage[] {
	const out: PlayMessage[] = [];
	for (const row of rows) if (isPlayRole(row.role)) out.push({ id: row.id, role: row.role, body: row.body, turnId: row.turnId });
	return out;
}

async function cueRows(exec: SessionExec, where: SQL): Promise<PlayCue[]> {
	const rows = await exec.select().from(stageCues).where(where).orderBy(asc(stageCues.messageId), asc(stageCues.paragraph), asc(stageCues.ord));
	const out: PlayCue[] = [];
	for (const row of rows) {
		// Stored JSON is outside data to the screen: a row that is not a cue is left out, never played.
		const cue = readCue(row.cue);
		if (cue) out.push({ messageId: row.messageId, paragraph: row.paragraph, ord: row.ord, cue });
	}
	return out;
}


async function images(exec: SessionExec, sessionId: string): Promise<{ npcs: StageImage[]; scenes: StageImage[] }> {
	const orders = await exec.select({ target: imageOrders.target, name: imageOrders.targetName, status: imageOrders.status }).from(imageOrders).orderBy(asc(imageOrders.id));
	// The newest order of a target says whether a (new) image is still coming.
	const latest = new Map<string, string>();
	for (const o of orders) latest.set(`${o.target}:${o.name}`, o.status);
	const status = (target: 'npc' | 'scene', name: string, image: string | null): ImageStatus => {
		const s = latest.get(`${target}:${name}`);
		if (s === 'failed') return image ? 'ready' : 'failed';
		if (s === 'pending' || s === 'running') return 'pending';
		return image ? 'ready' : 'pending';
	};
	const npcRows = await stage.npcs.list(exec);
	const sceneRows = await stage.scenes.list(exec);
	return {
		npcs: npcRows.map((n) => ({ name: n.name, url: n.spriteImage ? imageUrl(sessionId, n.spriteImage) : null, status: status('npc', n.name, n.spriteImage) })),
		scenes: sceneRows.map((s) => ({ name: s.name, url: s.backgroundImage ? imageUrl(sessionId, s.backgroundImage) : null, status: status('scene', s.name, s.backgroundImage) }))
	};
}

async function streamedText(exec: SessionExec, turnId: string, through: number): Promise<string> {
	const rows = await exec
		.select({ data: events.data })
		.from(events)
		.where(and(eq(events.turnId, turnId), eq(events.type, 'text.delta'), lte(events.id, through)))
		.orderBy(asc(events.id));
	let text = '';
	for (const row of rows) {
		const parsed: unknown = JSON.parse(row.data);
		if (typeof parsed === 'object' && parsed !== null && 'text' in parsed && typeof parsed.text === 'string') text += parsed.text;
	}
	return text;
}

async function turnsOfInterest(exec: SessionExec, cursor: number, now: number): Promise<{ activeTurn: ActiveTurn | null; lastTurn: FinishedTurn | null }> {
	const [active] = await exec
		.select()
		.from(turns)
		.where(and(inArray(turns.status, ['accepted', 'running']), inArray(turns.kind, ['player', 'handoff'])))
		.orderBy(desc(turns.createdAt))
		.limit(1);
	// A running turn whose lease ran out belongs to a runner that died: it is interrupted, whatever the row says yet.
	const stale = active?.status === 'running' && active.leaseExpiresAt !== null && active.leaseExpiresAt < now;
	if (active && !stale && (active.status === 'accepted' || active.status === 'running')) {
		return {
			activeTurn: { id: active.id, input: active.input, status: active.status, text: await streamedText(exec, active.id, cursor), cancelRequested: active.cancelRequested },
			lastTurn: null
		};
	}
	const [last] = await exec.select().from(turns).where(eq(turns.kind, 'player')).orderBy(desc(turns.createdAt)).limit(1);
	if (!last) return { activeTurn: null, lastTurn: null };
	const status = last.status === 'accepted' || last.status === 'running' ? 'interrupted' : last.status;
	// A failed turn is told by its class and error id: the `error` column never reaches the page.
	const failure = status === 'failed' ? { reason: last.failureReason ?? 'internal', errorId: last.errorId ?? 'unknown' } : null;
	return { activeTurn: null, lastTurn: { id: last.id, input: last.input, status, failure, stopped: last.stopped } };
}

/** Everything the play page renders first. */
export async function loadPlayView(exec: SessionExec, sessionId: string, now = Date.now()): Promise<PlayView> {
	// The cursor first: whatever is read after it may include later events, but the client resumes after it.
	const cursor = await lastEventId(exec);
	const messages = toPlayMessages(await records.log.list(exec, { limit: PLAY_MESSAGE_WINDOW }));
	const first = messages[0]?.id;
	const cues = messages.length === 0 ? [] : await cueRows(exec, inArray(stageCues.messageId, messages.map((m) => m.id)));
	return {
		messages,
		cues,
		initialStage: await stage.stageBefore(exec, first),
		...(await images(exec, sessionId)),
		...(await turnsOfInterest(exec, cursor, now)),
		lastEventId: cursor
	};
}

/** The messages after `afterId` with their cues, and the current images: what a committed turn added. */
export async function loadLogAfter(exec: SessionExec, sessionId: string, afterId: number): Promise<LogAfter> {
	const messages = toPlayMessages(await records.log.list(exec, { afterId, limit: LOG_AFTER_LIMIT }));
	const cues = messages.length === 0 ? [] : await cueRows(exec, inArray(stageCues.messageId, messages.map((m) => m.id)));
	return { messages, cues, ...(await images(exec, sessionId)) };
}
