import { sveltekit } from '@sveltejs/kit/vite';
import { svelteTesting } from '@testing-library/svelte/vite';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The remote-mode contract: these suites run a second time with every database (control and per
 * session) on the Hrana-over-HTTP test server (tests/hrana), through the real @libsql/client: records,
 * recall (FTS5 + vector_top_k), turns, SSE, migrations, session lifecycle, backups, the budget of turns.
 */
const REMOTE_SUITES = [
	'tests/unit/records/**/*.test.ts',
	'tests/unit/search/recall.test.ts',
	'tests/unit/search/embed-pending.test.ts',
	'tests/unit/turn/turn.test.ts',
	'tests/unit/turn/handoff.test.ts',
	'tests/unit/turn/commit-batch.test.ts',
	'tests/unit/turn/claim-race.test.ts',
	'tests/unit/budget/turn-calls.test.ts',
	'tests/unit/timetravel/**/*.test.ts',
	'tests/unit/api/events.test.ts',
	'tests/unit/api/turns.test.ts',
	'tests/unit/db/migrations.test.ts',
	'tests/unit/sessions/play-sessions.test.ts',
	'tests/unit/db/backup.test.ts',
	'tests/unit/presets/backup.test.ts',
	'tests/remote/**/*.test.ts'
];

/** Component tests live beside their components (`Overlay.svelte.test.ts` next to `Overlay.svelte`). */
const COMPONENT_TESTS = 'src/**/*.svelte.test.ts';

export default defineConfig({
	plugins: [sveltekit()],
	test: {
		environment: 'node',
		// Real libSQL files in temp dirs; a few tests run the CLI as a child process.
		testTimeout: 30_000,
		hookTimeout: 30_000,
		// One after the other: on two cores, running two at once only makes timing-sensitive tests flaky.
		projects: [
			{
				extends: true,
				test: {
					name: 'unit',
					include: ['tests/unit/**/*.test.ts', 'src/**/*.test.ts'],
					exclude: [...configDefaults.exclude, COMPONENT_TESTS],
					sequence: { groupOrder: 0 }
				}
			},
			{
				// Components in a simulated browser, Svelte's browser build (svelteTesting: the `browser` condition,
				// and the DOM cleaned up after each test).
				extends: true,
				plugins: [svelteTesting()],
				test: {
					name: 'component',
					include: [COMPONENT_TESTS],
					environment: 'jsdom',
					setupFiles: ['tests/component/setup.ts'],
					sequence: { groupOrder: 1 }
				}
			},
			{
				extends: true,
				test: { name: 'remote', include: REMOTE_SUITES, globalSetup: ['tests/remote/global-setup.ts'], sequence: { groupOrder: 2 } }
			}
		]
	}
});
