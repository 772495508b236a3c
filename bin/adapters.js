// @ts-check
// The SvelteKit adapter of each target (bin/targets.js), for svelte.config.js. Apart from the list of targets so
// that what runs the built app (npm start, the servers, the Worker) never loads a build tool.
import { targetsOf } from './targets.js';

/** @typedef {import('./targets.js').Target} Target */

/**
 * One target's SvelteKit adapter, loaded on demand so a build loads only the adapters it uses.
 * @param {Target} target
 * @returns {Promise<import('@sveltejs/kit').Adapter>}
 */
async function adapterFor(target) {
	switch (target.name) {
		case 'node': {
			const { default: adapter } = await import('@sveltejs/adapter-node');
			return adapter({ out: target.out });
		}
		case 'bun': {
			const { default: adapter } = await import('svelte-adapter-bun');
			// Its own index.js is not used (bin/server-bun.js serves the handler), so neither are its
			// environment variables; the static files are precompressed as adapter-node's are.
			return adapter({ out: target.out, precompress: true });
		}
		case 'deno': {
			const { default: adapter } = await import('@deno/svelte-adapter');
			return adapter();
		}
		case 'cloudflare': {
			const { cloudflareAdapter } = await import('./cloudflare-build.js');
			return cloudflareAdapter(target.out);
		}
	}
}

/**
 * The adapter for KANTERA_ADAPTER. Several targets share one `vite build`: the app is compiled once
 * and each adapter writes its own folder from it, which is what a build of each alone would write.
 * @param {string | undefined} value
 * @returns {Promise<import('@sveltejs/kit').Adapter>}
 */
export async function buildAdapter(value) {
	const targets = targetsOf(value);
	const adapters = await Promise.all(targets.map(adapterFor));
	const [only] = adapters;
	if (adapters.length === 1 && only) return only;
	return {
		name: `kantera (${targets.map((t) => t.name).join(', ')})`,
		async adapt(builder) {
			for (const adapter of adapters) {
				builder.log.minor(`Adapting for ${adapter.name}`);
				await adapter.adapt(builder);
			}
		},
		supports: {
			// Every target must allow what the app uses.
			read: (details) => adapters.every((a) => a.supports?.read?.(details) ?? false)
		}
	};
}
