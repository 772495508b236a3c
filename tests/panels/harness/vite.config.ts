/** Builds the component harness (tests/panels/harness) into HARNESS_DIST (a temp folder). */
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = fileURLToPath(new URL('.', import.meta.url));
/** Keep in step with HARNESS_DIST in paths.ts (a config file cannot import it without a file extension). */
const HARNESS_DIST = path.join(tmpdir(), 'kantera-panels-harness');

export default defineConfig({
	root,
	base: './',
	logLevel: 'warn',
	plugins: [svelte({ configFile: false, compilerOptions: { runes: true } })],
	build: { outDir: HARNESS_DIST, emptyOutDir: true, target: 'es2022' }
});
