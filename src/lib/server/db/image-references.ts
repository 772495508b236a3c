/**
 * The images a database refers to, read with plain SQL so that any copy of it can be asked (a backup's,
 * a restored one, a database the doctor opens without the app): a session's sprites, backgrounds and image
 * orders name keys in the session's own image folder; the control database's preset covers name a key in
 * their slot's folder. A table that is not there yet (migrations pending) refers to nothing.
 */
import type { Client } from '@libsql/client';
import { sqlText } from './text';

type Reader = Pick<Client, 'execute'>;

async function tablesOf(client: Reader): Promise<Set<string>> {
	const rs = await client.execute("SELECT name FROM sqlite_master WHERE type = 'table'");
	return new Set(rs.rows.map((r) => sqlText(r.name)));
}

/** The columns that hold an image key of the session's own folder. */
const SESSION_IMAGE_COLUMNS: ReadonlyArray<readonly [table: string, column: string]> = [
	['npcs', 'sprite_image'],
	['scenes', 'background_image'],
	['image_orders', 'image']
];

/** The image keys a session database (or a save slot's) refers to, sorted. */
export async function sessionImageKeys(client: Reader): Promise<string[]> {
	const tables = await tablesOf(client);
	const keys = new Set<string>();
	for (const [table, column] of SESSION_IMAGE_COLUMNS) {
		if (!tables.has(table)) continue;
		const rs = await client.execute(`SELECT DISTINCT ${column} AS k FROM ${table} WHERE ${column} IS NOT NULL`);
		for (const r of rs.rows) keys.add(sqlText(r.k));
	}
	return [...keys].sort();
}

/** The preset covers' image folders (slots) and the image each shows, if drawn yet. */
export async function coverImages(control: Reader): Promise<Array<{ slot: string; image: string | null }>> {
	if (!(await tablesOf(control)).has('preset_covers')) return [];
	const rs = await control.execute('SELECT slot, image FROM preset_covers ORDER BY slot');
	return rs.rows.map((r) => ({ slot: sqlText(r.slot), image: r.image === null ? null : sqlText(r.image) }));
}
