/**
 * Reading the play page's "log after" answer (`GET /sessions/{id}/log?after=`): the messages and cues
 * a committed turn added, and the current images. Checked before use, like every network answer.
 */
import { readCue } from '../adv';
import type { ImageStatus, LogAfter, PlayCue, PlayMessage, StageImage } from './types';

function record(v: unknown): Record<string, unknown> | null {
	return typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...v } : null;
}

function list<T>(v: unknown, read: (item: unknown) => T | null): T[] {
	if (!Array.isArray(v)) return [];
	const out: T[] = [];
	for (const item of v) {
		const r = read(item);
		if (r !== null) out.push(r);
	}
	return out;
}

function message(v: unknown): PlayMessage | null {
	const o = record(v);
	if (!o || typeof o.id !== 'number' || typeof o.body !== 'string') return null;
	if (o.role !== 'player' && o.role !== 'gm') return null;
	const turnId = typeof o.turnId === 'string' ? o.turnId : null;
	return { id: o.id, role: o.role, body: o.body, turnId };
}

function cue(v: unknown): PlayCue | null {
	const o = record(v);
	if (!o || typeof o.messageId !== 'number' || typeof o.paragraph !== 'number' || typeof o.ord !== 'number') return null;
	const c = readCue(o.cue);
	return c ? { messageId: o.messageId, paragraph: o.paragraph, ord: o.ord, cue: c } : null;
}

function status(v: unknown): ImageStatus | null {
	return v === 'pending' || v === 'ready' || v === 'failed' ? v : null;
}

function image(v: unknown): StageImage | null {
	const o = record(v);
	const s = status(o?.status);
	if (!o || typeof o.name !== 'string' || s === null) return null;
	// Only our own image route: an answer pointing elsewhere is not drawn.
	const url = typeof o.url === 'string' && o.url.startsWith('/api/v1/sessions/') ? o.url : null;
	return { name: o.name, url, status: s };
}

export function readLogAfter(json: unknown): LogAfter {
	const o = record(json) ?? {};
	return { messages: list(o.messages, message), cues: list(o.cues, cue), npcs: list(o.npcs, image), scenes: list(o.scenes, image) };
}
