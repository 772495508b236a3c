/**
 * The play log's one read model: pages of messages with their stage cues, the stage as a page
 * begins, and the images of the registered characters and places. The play page opens on the latest
 * page, a committed turn's messages arrive as an `?after=` page, the backlog pages back with
 * `?before=`, and `GET …/messages` is the same paging without the stage. A new stage feature is added
 * here and in `LogPageSchema` (`$lib/types/log.ts`), once.
 *
 * Only player-visible data leaves through here: the play log itself (player-visible by rule), the
 * cues and the names and image URLs of registered characters and places. Every page is read as one member
 * (`reader`) sees it: other members' whispers read "<character> whispers to the GM", their answers stay out (issue 25).
 */
import type { SessionExec } from '../db';
import { log } from '../records';
import { cues, imageOrders, npcs, placeKind, scenes, stageBefore } from '../stage';
import { parseSpriteVariant } from '../../adv';
import { imageUrl, isImageKey } from '../images';
import { hiddenFrom, whispersAmong, type Whisper } from '../turn';
import { whisperedLine, type Reader } from '../events';
import type { ImageTarget } from '../../types/events';
import type { ImageStatus, LogPageDto, MessageDto, MessagesPageDto, StageImageDto, StageImagesDto } from '../../types/log';

/** Neither cursor: the latest page. `before` pages back from a message; `after` catches up from one. */
export interface LogQuery {
	readonly before?: number | undefined;
	readonly after?: number | undefined;
	readonly limit: number;
}

function messageDto(m: log.LogMessage, whisper: Whisper | undefined): MessageDto {
	const dto = {
		id: m.id,
		role: m.role,
		speaker: m.speaker,
		body: m.body,
		turnId: m.turnId,
		createdAt: new Date(m.createdAt).toISOString()
	};
	return whisper ? { ...dto, whisper } : dto;
}

/**
 * A page of the log as `reader` may read it: someone else's whisper keeps only its line, worded in the reader's language
 * (the screen says who whispered), and loses the GM's answer; the whisperer's own are marked as whispers.
 * `nextBefore` is the unfiltered page's, so paging back skips nothing.
 */
async function messageRows(
	exec: SessionExec,
	q: LogQuery,
	reader: Reader
): Promise<{ messages: MessageDto[]; fullIds: number[]; firstId?: number; nextBefore?: number }> {
	const rows = await log.list(exec, { beforeId: q.before, afterId: q.after, limit: q.limit });
	const whispers = await whispersAmong(
		exec,
		rows.flatMap((m) => (m.turnId === null ? [] : [m.turnId]))
	);
	const messages: MessageDto[] = [];
	const fullIds: number[] = [];
	for (const m of rows) {
		const whisper = m.turnId === null ? undefined : whispers.get(m.turnId);
		if (!whisper || !hiddenFrom(whisper.by, reader.id)) {
			messages.push(messageDto(m, whisper));
			fullIds.push(m.id);
		} else if (m.role === 'player') messages.push({ ...messageDto(m, whisper), body: whisperedLine(whisper.as, reader.language) });
	}
	const first = rows[0];
	const page = { messages, fullIds, ...(first ? { firstId: first.id } : {}) };
	// A full page going backwards may have more before it.
	return first && rows.length === q.limit && q.after === undefined ? { ...page, nextBefore: first.id } : page;
}

/** `GET …/messages`: a page of the play log without its stage, as `reader` may read it. */
export async function messagesPage(exec: SessionExec, q: LogQuery, reader: Reader): Promise<MessagesPageDto> {
	const { messages, nextBefore } = await messageRows(exec, q, reader);
	return { messages, ...(nextBefore === undefined ? {} : { nextBefore }) };
}

/** A page of the play log with its cues, the stage as it begins, and the current images, as `reader` may read it. */
export async function logPage(exec: SessionExec, sessionId: string, q: LogQuery, reader: Reader): Promise<LogPageDto> {
	const { messages, fullIds, firstId, nextBefore } = await messageRows(exec, q, reader);
	const [pageCues, before, images] = await Promise.all([
		// Only the cues of messages shown in full: a hidden whisper's answer takes its stage directions with it.
		cues.forMessages(exec, fullIds),
		// An empty page still begins somewhere: before `before`, or after everything so far.
		stageBefore(exec, firstId ?? q.before),
		stageImages(exec, sessionId)
	]);
	return {
		messages,
		cues: pageCues,
		stageBefore: before,
		...(nextBefore === undefined ? {} : { nextBefore }),
		images
	};
}

/**
 * Every registered character and place with its image: the URL once there is one, and whether one is
 * coming; each character's expression sprites (ordered by `register_npc`) as entries of their own;
 * each place's kind, for the backdrop drawn until its image is ready.
 */
export async function stageImages(exec: SessionExec, sessionId: string): Promise<StageImagesDto> {
	const [orders, characters, places] = await Promise.all([imageOrders.statusesQuery(exec), npcs.list(exec), scenes.list(exec)]);
	// The newest order of a target says whether a (new) image is still coming; the newest done one is its image.
	const latest = new Map<string, string>();
	const done = new Map<string, string>();
	for (const o of orders) {
		latest.set(`${o.target}:${o.name}`, o.status);
		if (o.status === 'done' && o.image !== null) done.set(`${o.target}:${o.name}`, o.image);
	}
	const image = (target: ImageTarget, name: string, key: string | null): StageImageDto => {
		const url = key !== null && isImageKey(key) ? imageUrl(sessionId, key) : null;
		return { name, url, status: imageStatus(latest.get(`${target}:${name}`), url !== null) };
	};
	const registered = new Set(characters.map((n) => n.name));
	const variants: StageImageDto[] = [];
	for (const key of latest.keys()) {
		const name = key.slice('npc:'.length);
		const variant = key.startsWith('npc:') ? parseSpriteVariant(name) : null;
		if (variant && registered.has(variant.character))
			variants.push({ ...image('npc', name, done.get(key) ?? null), name: variant.character, expression: variant.expression });
	}
	return {
		characters: [...characters.map((n) => image('npc', n.name, n.spriteImage)), ...variants],
		scenes: places.map((s) => ({ ...image('scene', s.name, s.backgroundImage), kind: placeKind(s.name, s.description) }))
	};
}

function imageStatus(newestOrder: string | undefined, hasImage: boolean): ImageStatus {
	if (newestOrder === 'failed') return hasImage ? 'ready' : 'failed';
	if (newestOrder === 'pending' || newestOrder === 'running') return 'pending';
	return hasImage ? 'ready' : 'pending';
}
