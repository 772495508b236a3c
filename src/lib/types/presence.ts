/**
 * Presence at a shared table (issue 25): who has the session open (an event stream) and who is typing a line. Not
 * an event of the log: each stream gets it as an SSE `presence` frame without an id, when it opens and whenever it
 * changes, so a resumed stream never replays it. Each server process knows its own streams only (docs/api.md).
 */
import * as v from 'valibot';

export const PRESENCE_EVENT = 'presence';

/** `here` and `typing` are user ids, as `GET …/members` lists them. */
export const PresenceSchema = v.object({ here: v.array(v.string()), typing: v.array(v.string()) });
export type Presence = v.InferOutput<typeof PresenceSchema>;

/** How long a typing ping holds; the input box pings at most every TYPING_PING_MS while the player types. */
export const TYPING_TTL_MS = 5_000;
export const TYPING_PING_MS = 2_000;

/** The presence in an SSE `data:` line, or null when it is not one. */
export function parsePresence(json: string): Presence | null {
	try {
		const parsed = v.safeParse(PresenceSchema, JSON.parse(json));
		return parsed.success ? parsed.output : null;
	} catch {
		return null;
	}
}
