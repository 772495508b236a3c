/**
 * Global setup of the `remote` vitest project: one Hrana-over-HTTP test server (tests/hrana) for the
 * whole run, over libSQL files in a temp dir. It is provided to this project's tests only (see
 * tests/helpers/databases.ts), which put every database of their apps on it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startHranaServer } from '../hrana';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
	const dir = mkdtempSync(path.join(tmpdir(), 'kantera-hrana-'));
	const server = await startHranaServer({ dir, autoCreate: true });
	project.provide('hranaOrigin', server.origin);
	project.provide('hranaDir', dir);
	return async () => {
		await server.close();
		rmSync(dir, { recursive: true, force: true });
	};
}
