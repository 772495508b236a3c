/**
 * The remote path loads neither `node:fs` nor the native libSQL driver (an isolate host has neither):
 * a child process opens a remote database through Kantera's db code with module hooks that fail any
 * such import; a local file in the same process shows the hooks do catch it.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { tempDir } from '../helpers/env';
import { freshDatabaseUrl } from '../helpers/databases';

const root = path.resolve(__dirname, '../..');

function openIn(url: string) {
	return spawnSync(
		process.execPath,
		['--import', 'tsx', '--import', './tests/remote/forbid-local-driver.mjs', 'tests/remote/open-remote.ts', url],
		{ cwd: root, encoding: 'utf8', timeout: 60_000 }
	);
}

describe('the remote path', () => {
	it('opens and queries a remote database without node:fs or the native driver', () => {
		const d = tempDir();
		try {
			const run = openIn(freshDatabaseUrl(d.dir, 'nofs'));
			expect(run.stderr).toBe('');
			expect(run.stdout).toBe('answer 42\n');
		} finally {
			d.remove();
		}
	});

	it('(the hooks work: a local file is refused)', () => {
		const d = tempDir();
		try {
			const run = openIn(`file:${path.join(d.dir, 'x.db')}`);
			expect(run.status).not.toBe(0);
			expect(run.stderr).toMatch(/forbidden on the remote path/);
		} finally {
			d.remove();
		}
	});
});
