/**
 * The control database's presets through the logical export that backups of remote databases use:
 * `presets.listed` is a generated column (computed again, never inserted), `preset_versions` and the
 * others reference `presets.id` through a unique index, and the gallery search is FTS5 kept by
 * triggers. A restore must bring all of it back, search and counters working, also onto a database
 * that already holds presets.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type Client } from '@libsql/client';
import * as v from 'valibot';
import { testEnv, tempDir, type TestEnv } from '../../helpers/env';
import { createApp } from '../../../src/lib/server/app';
import { freshDatabaseUrl } from '../../helpers/databases';
import { createUser } from '../../../src/lib/server/auth';
import { changeVisibility, createFromInput, favorite } from '../../../src/lib/server/presets';
import { dumpDatabase, loadDatabase } from '../../../src/lib/server/db/backup/dump';
import { presetInput } from './factory';
import { integrity } from '../../helpers/copies';

let env: TestEnv | undefined;
const cleanups: Array<() => void> = [];
afterEach(async () => {
	await env?.cleanup();
	env = undefined;
	cleanups.splice(0).forEach((c) => c());
});

async function exportOf(client: Client): Promise<string[]> {
	const lines: string[] = [];
	await dumpDatabase(client, (line) => {
		lines.push(line);
	});
	return lines;
}

const SchemaLine = v.object({ schema: v.array(v.unknown()) });
const rowsOf = async (c: Client, sql: string) => (await c.execute(sql)).rows.map((r) => Object.values(r).map(String));

describe('presets in a backup export', () => {
	it('restore brings back presets, versions, favourites, the listed flag and a working title search', async () => {
		env = await testEnv();
		const { app } = env;
		const author = await createUser(app, { name: 'author', password: 'correct horse battery' }, { viaOperator: true });
		const reader = await createUser(app, { name: 'reader', password: 'correct horse battery' }, { viaOperator: true });
		const row = await createFromInput(app, author, presetInput({ title: 'Harbour of Lanterns' }));
		await changeVisibility(app, author, row.id, 'public');
		await favorite(app, reader, row.id, true);
		await app.covers.idle();

		const source = createClient({ url: app.config.controlDb.url, authToken: app.config.controlDb.authToken, intMode: 'bigint' });
		const lines = await exportOf(source);
		source.close();
		expect(lines.some((l) => l.includes('`listed` integer GENERATED ALWAYS'))).toBe(true); // in the schema's CREATE TABLE…
		expect(lines.filter((l) => l.startsWith('{"table":"presets"'))).toEqual([expect.not.stringContaining('"listed"')]); // …never as a column of rows

		const d = tempDir();
		cleanups.push(d.remove);
		const target = createClient({ url: freshDatabaseUrl(d.dir, 'restored'), intMode: 'bigint' });
		cleanups.push(() => target.close());
		// Twice: the second load replaces a database that already has the presets' tables, triggers and index.
		for (let i = 0; i < 2; i++) {
			await loadDatabase(target, lines);
			expect(await integrity(target)).toEqual(['ok']);
		}
		// The restored database exports what it was made from (its schema objects may be listed in another order).
		const again = await exportOf(target);
		const schemaOf = (ls: string[]) =>
			ls
				.filter((l) => l.startsWith('{"schema"'))
				.flatMap((l) => v.parse(SchemaLine, JSON.parse(l)).schema.map((o) => JSON.stringify(o)))
				.sort();
		expect(schemaOf(again)).toEqual(schemaOf(lines));
		expect(again.filter((l) => !l.startsWith('{"schema"'))).toEqual(lines.filter((l) => !l.startsWith('{"schema"')));

		expect(await rowsOf(target, `SELECT id, listed, favorites, current_version FROM presets WHERE id = '${row.id}'`)).toEqual([
			[row.id, '1', '1', '1']
		]);
		expect(await rowsOf(target, `SELECT preset_id, version FROM preset_versions`)).toEqual([[row.id, '1']]);
		expect(
			await rowsOf(
				target,
				`SELECT p.id FROM preset_search JOIN presets p ON p.seq = preset_search.rowid WHERE preset_search MATCH '"lantern"'`
			)
		).toEqual([[row.id]]);
		// The triggers came back too: a favourite removed after the restore still counts down.
		await target.execute(`DELETE FROM preset_favorites WHERE preset_id = '${row.id}'`);
		expect(await rowsOf(target, `SELECT favorites FROM presets WHERE id = '${row.id}'`)).toEqual([['0']]);
	});

	it('a restart leaves the control database as it was (the official presets are synced, not written again)', async () => {
		env = await testEnv();
		const { app, config } = env;
		const client = () => createClient({ url: config.controlDb.url, authToken: config.controlDb.authToken, intMode: 'bigint' });
		await app.covers.idle();
		const first = client();
		const before = await exportOf(first);
		first.close();
		for (let i = 0; i < 2; i++) await (await createApp(config, { background: false })).close();
		const second = client();
		cleanups.push(() => second.close());
		expect(await exportOf(second)).toEqual(before);
	});
});
