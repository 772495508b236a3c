/**
 * Global setup of the `remote` vitest project: one Hrana-over-HTTP test server (tests/hrana) for the
 * whole run, over libSQL files in a temp dir. Test files find it through KANTERA_TEST_HRANA_ORIGIN
 * (see tests/helpers/databases.ts) and put every database of their apps on it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startHranaServer } from '../hrana';
import { HRANA_DIR_VAR, HRANA_ORIGIN_VAR } from '../helpers/databases';

export default async function setup(): Promise<() => Promise<void>> {
	const dir = mkdtempSync(path.join(tmpdir(), 'kantera-hrana-'));
	const server = await startHranaServer({ dir, autoCreate: true });
	process.env[HRANA_ORIGIN_VAR] = server.origin;
	process.env[HRANA_DIR_VAR] = dir;
	return async () => {
		await server.close();
		rmSync(dir, { recursive: true, force: true });
	};
}
