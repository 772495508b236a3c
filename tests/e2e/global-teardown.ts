import { rmSync } from 'node:fs';

/** Removes the run's temporary data directory (accounts and session databases). */
export default function globalTeardown(): void {
	const dir = process.env.KANTERA_E2E_DATA_DIR;
	if (dir && dir.includes('kantera-e2e-')) rmSync(dir, { recursive: true, force: true });
}
