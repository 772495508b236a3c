/**
 * The state record: one JSON document (location, in-game time, HP, inventory, flags), changed only
 * by RFC 7396 merge patches. Indexed as one section per top-level key (`State › inventory`), so
 * recall can point at the part that matters and unchanged keys keep their vectors.
 */
import { eq } from 'drizzle-orm';
import { sessionSchema } from '../db';
import type { SessionDrizzle, SessionExec, SessionTx } from '../db';
import { RecordError } from './errors';
import { isJsonObject, isJsonValue, mergePatch, type JsonObject, type JsonValue } from './merge-patch';
import { chunkPlain, type Chunk } from './chunk';
import { addSectionsQueries, replaceSections, type SectionOwner } from './sections';
import { MAX_BODY_CHARS } from './limits';
import { PATH_ROOT } from './paths';

const { state: stateTable } = sessionSchema;

/** The state lives in a single row. */
const STATE_ROW_ID = 1;

export interface StateSnapshot {
	readonly doc: JsonObject;
	/** 0 before the first patch; +1 on every patch. */
	readonly version: number;
}

export async function get(exec: SessionExec): Promise<StateSnapshot> {
	return snapshotOf(await getQuery(exec));
}

/** `get`'s query, unrun: for a batch; `snapshotOf` reads its rows. */
export function getQuery(exec: SessionExec) {
	return exec.select().from(stateTable).where(eq(stateTable.id, STATE_ROW_ID));
}

export function snapshotOf([row]: { doc: unknown; version: number }[]): StateSnapshot {
	if (!row) return { doc: {}, version: 0 };
	const doc: unknown = row.doc;
	if (!isJsonValue(doc) || !isJsonObject(doc)) throw new Error('the stored state document is not a JSON object');
	return { doc, version: row.version };
}

export interface PatchOptions {
	/** Refuse the patch (code `conflict`) unless the state is still at this version. */
	readonly expectedVersion?: number;
}

/**
 * Applies a merge patch: keys in the patch replace or merge into the state, `null` deletes a key.
 * Only a JSON object is accepted: an array or plain value would, by RFC 7396, replace the whole
 * state, which is never what a game master means.
 */
export async function patch(tx: SessionTx, patchDoc: unknown, options: PatchOptions = {}): Promise<StateSnapshot> {
	const next = patched(await get(tx), patchDoc, options);
	const now = Date.now();
	await tx
		.insert(stateTable)
		.values({ id: STATE_ROW_ID, doc: next.doc, version: next.version, updatedAt: now })
		.onConflictDoUpdate({ target: stateTable.id, set: { doc: next.doc, version: next.version, updatedAt: now } });
	await replaceSections(tx, SECTION_OWNER, stateSections(next.doc));
	return next;
}

/**
 * The first `patch` of a new database's state as queries for a batch (a new session's seed): the row
 * and its sections, nothing read. A state already there fails the batch on the row's key.
 */
export function firstPatchQueries(db: Pick<SessionDrizzle, 'insert'>, patchDoc: unknown, now: number) {
	const next = patched({ doc: {}, version: 0 }, patchDoc, {});
	return [
		db.insert(stateTable).values({ id: STATE_ROW_ID, doc: next.doc, version: next.version, updatedAt: now }),
		...addSectionsQueries(db, SECTION_OWNER, stateSections(next.doc))
	];
}

const SECTION_OWNER: SectionOwner = { kind: 'state', recordId: STATE_ROW_ID, gmOnly: false, ref: null };

/** `current` with the merge patch applied, checked (see `patch`). */
function patched(current: StateSnapshot, patchDoc: unknown, options: PatchOptions): StateSnapshot {
	if (!isJsonValue(patchDoc)) {
		throw new RecordError('invalid_patch', 'The state update is not plain JSON (it holds undefined, a function or a non-finite number).');
	}
	if (!isJsonObject(patchDoc)) {
		throw new RecordError(
			'invalid_patch',
			`The state update must be a JSON object of the keys to change, e.g. {"hp": 7, \
"inventory": ["rope"]}; set a key to null to delete it. Got ${describe(patchDoc)}, which \
would replace the whole state.`
		);
	}
	if (options.expectedVersion !== undefined && options.expectedVersion !== current.version) {
		throw new RecordError(
			'conflict',
			`The state changed since version ${options.expectedVersion} (it is now at ${current.version}); read it again and reapply the change.`
		);
	}
	const next = mergePatch(current.doc, patchDoc);
	// A patch that is an object always yields an object; the check keeps the type honest.
	if (!isJsonObject(next)) throw new RecordError('invalid_patch', 'The state update did not produce a JSON object.');
	const size = JSON.stringify(next).length;
	if (size > MAX_BODY_CHARS) {
		throw new RecordError(
			'invalid_input',
			`The state would grow to ${size} characters (limit ${MAX_BODY_CHARS}); move long text into memory notes or documents.`
		);
	}
	return { doc: next, version: current.version + 1 };
}

/** One section per top-level key; strings are indexed as they are, other values as JSON. */
function stateSections(doc: JsonObject): Chunk[] {
	return Object.entries(doc).flatMap(([key, value]) => chunkPlain([PATH_ROOT.state, key], valueText(value)));
}

function valueText(value: JsonValue): string {
	return typeof value === 'string' ? value : JSON.stringify(value);
}

function describe(value: JsonValue): string {
	if (Array.isArray(value)) return 'an array';
	return value === null ? 'null' : `a ${typeof value}`;
}
