import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';
import { buildAdapter } from './bin/targets.js';

/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: vitePreprocess(),
	kit: {
		// CSRF origin checking is SvelteKit's default and stays on: do not add trustedOrigins: ['*'].
		// KANTERA_ADAPTER=node|bun|deno picks the runtime the build is for (node when unset); `npm start`
		// reads the same variable. Each target builds into its own folder (bin/targets.js).
		adapter: await buildAdapter(process.env.KANTERA_ADAPTER),
		// Pages get a Content-Security-Policy header; SvelteKit adds a fresh nonce to its own inline
		// script (and to style-src) on every page, so no other inline script can run. Style attributes
		// (Svelte's style: directives, the app shell's wrapper) stay allowed: they cannot run code.
		// Everything loads from this origin: scripts, styles, images (sprites, backgrounds and their SVG
		// placeholders), the event stream and the JSON API. Nobody may frame a page.
		csp: {
			mode: 'auto',
			directives: {
				'default-src': ['self'],
				'script-src': ['self'],
				'style-src': ['self'],
				'style-src-attr': ['unsafe-inline'],
				'img-src': ['self'],
				'font-src': ['self'],
				'connect-src': ['self'],
				'object-src': ['none'],
				'base-uri': ['self'],
				'form-action': ['self'],
				'frame-ancestors': ['none']
			}
		}
	},
	compilerOptions: { runes: true }
};

export default config;
