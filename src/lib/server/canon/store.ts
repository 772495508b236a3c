/**
 * A session's canon, kept in its meta table (key `canon`) from the world it was seeded with: each secret's
 * story-DB key with its markers, and what the world does not have. Written once with the seed; what is
 * revealed since is the story DB's (`story.revealedKeysQuery`). GM-side: nothing here reaches the player.
 */
import * as v from 'valibot';
import { meta, type SessionDrizzle, type SessionExec } from '../db';
import type { CanonSource } from '../../canon';

const CANON_KEY = 'canon' satisfies meta.JsonKey;

const CanonSchema = v.object({
	secrets: v.array(v.object({ key: v.string(), markers: v.array(v.string()) })),
	anachronisms: v.array(v.object({ terms: v.array(v.string()), note: v.optional(v.string()) }))
});

/** A session without a canon (seeded before it existed, or with no world): nothing to check. */
export const NO_CANON: CanonSource = Object.freeze({ secrets: [], anachronisms: [] });

/** The canon's write, unrun: for the seed's batch. */
export function writeCanonQuery(db: Pick<SessionDrizzle, 'insert'>, source: CanonSource) {
	return meta.putJsonQuery(db, CANON_KEY, source);
}

/** The canon's read, unrun: for the turn's start batch (`canonOf` reads the answer). */
export function canonQuery(exec: Pick<SessionExec, 'select'>) {
	return meta.valueQuery(exec, CANON_KEY);
}

export function canonOf(rows: readonly { value: string }[]): CanonSource {
	return meta.jsonOf(rows, CanonSchema) ?? NO_CANON;
}

/** The canon of a seeded world: its secrets' markers and its list of what it does not have. */
export function canonOfWorld(world: {
	secrets: readonly { key: string; markers?: readonly string[] }[];
	anachronisms?: readonly { terms: readonly string[]; note?: string | undefined }[];
}): CanonSource {
	return {
		secrets: world.secrets.map((s) => ({ key: s.key, markers: [...(s.markers ?? [])] })),
		anachronisms: (world.anachronisms ?? []).map((a) => ({ terms: [...a.terms], ...(a.note ? { note: a.note } : {}) }))
	};
}
