import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: vitePreprocess(),
	kit: {
		// CSRF origin checking is SvelteKit's default and stays on: do not add trustedOrigins: ['*'].
		adapter: adapter()
	},
	compilerOptions: { runes: true }
};

export default config;
