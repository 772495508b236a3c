import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';
import * as v from 'valibot';
import { buildAdapter } from './bin/adapters.js';

/** The servers that run under Bun, Deno and workerd, not Node (kept out of the type-checked project, see below). */
export const RUNTIME_SERVERS = ['bin/server-bun.js', 'bin/server-deno.js', 'bin/cloudflare-worker.js'];

/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: vitePreprocess(),
	kit: {
		// The generated tsconfig covers src/ and tests/; the scripts, the CLI in bin/ and the root config files are
		// type-checked (svelte-check) and linted (ESLint's project service) with the same settings. The Bun, Deno and
		// Workers servers are left out: they are written against their runtime's own globals (Bun, Deno, workerd's
		// `cloudflare:workers`), whose types come with that runtime, not with this project; the Worker also imports
		// SvelteKit's, which exists only after a build.
		typescript: {
			config: (tsconfig) => ({
				...tsconfig,
				include: [
					...v.parse(v.array(v.string()), tsconfig.include),
					'../scripts/**/*.ts',
					'../scripts/**/*.js',
					'../bin/**/*.js',
					'../*.config.ts',
					'../*.config.js'
				],
				exclude: [...v.parse(v.array(v.string()), tsconfig.exclude), ...RUNTIME_SERVERS.map((file) => `../${file}`)]
			})
		},
		// CSRF origin checking is SvelteKit's default and stays on: do not add trustedOrigins: ['*'].
		// KANTERA_ADAPTER=node|bun|deno picks the runtime the build is for (node when unset); `npm start`
		// reads the same variable. Each target builds into its own folder (bin/targets.js, bin/adapters.js).
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
