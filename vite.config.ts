import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
	plugins: [sveltekit()],
	test: {
		include: ['tests/unit/**/*.test.ts', 'src/**/*.test.ts'],
		environment: 'node',
		// Real libSQL files in temp dirs; a few tests run the CLI as a child process.
		testTimeout: 30_000,
		hookTimeout: 30_000
	}
});
