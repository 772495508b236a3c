/**
 * What the files of a deployment belong to, as its databases record it. Image folders are play sessions'
 * or preset covers' (the official worlds' covers too: their folder is the cover's slot, not a session);
 * session database files are play sessions' or their save slots'. Each reader answers undefined when the
 * table is not there yet (migrations pending): what cannot be known is not called stray.
 */
import type { Client } from '@libsql/client';
import { sqlText } from '../../db';
import { withTimeout } from './probe';

async function column(client: Client, table: string, name: string, timeoutMs: number): Promise<Set<string> | undefined> {
	const has = await withTimeout(
		client.execute({ sql: 'SELECT count(*) AS n FROM sqlite_master WHERE type = ? AND name = ?', args: ['table', table] }),
		timeoutMs
	);
	if (Number(has.rows[0]?.n) === 0) return undefined;
	const rows = await withTimeout(client.execute(`SELECT ${name} AS v FROM ${table}`), timeoutMs);
	return new Set(rows.rows.map((r) => sqlText(r.v)));
}

/** The image folders of preset covers (control database). */
export function coverSlots(control: Client, timeoutMs: number): Promise<Set<string> | undefined> {
	return column(control, 'preset_covers', 'slot', timeoutMs);
}

/** The databases of a session's save slots (its own database). */
export function saveDatabases(session: Client, timeoutMs: number): Promise<Set<string> | undefined> {
	return column(session, 'saves', 'database', timeoutMs);
}
