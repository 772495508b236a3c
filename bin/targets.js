// @ts-check
// The runtimes Kantera builds for, chosen by KANTERA_ADAPTER at build time (svelte.config.js) and at
// start (`npm start`, bin/start.js). Each target builds into its own folder, so building one never
// leaves another's output half-replaced and `npm start` can tell whether the target it is asked for
// has been built.
import * as v from 'valibot';

/** @typedef {'node' | 'bun' | 'deno'} TargetName */

/**
 * @typedef {object} Target
 * @property {TargetName} name
 * @property {string} out the build folder, relative to the project root
 * @property {string} entry a file every build of this target has, relative to the project root
 * @property {string} server the start script (in bin/) the runtime runs
 */

/** @type {Record<TargetName, Target>} */
export const TARGETS = {
	node: { name: 'node', out: 'build', entry: 'build/handler.js', server: 'server.js' },
	bun: { name: 'bun', out: 'build-bun', entry: 'build-bun/handler.js', server: 'server-bun.js' },
	// @deno/svelte-adapter always writes to .deno-deploy/ (it has no option for the folder).
	deno: { name: 'deno', out: '.deno-deploy', entry: '.deno-deploy/server/index.js', server: 'server-deno.js' }
};

const Name = v.picklist(['node', 'bun', 'deno'], 'must be node, bun or deno');
/** One name (npm start) or several separated by commas (a build of several targets at once). */
const NameList = v.pipe(
	v.string(),
	v.transform((s) => s.split(',').map((name) => name.trim())),
	v.array(Name),
	v.transform((names) => [...new Set(names)])
);

export class TargetError extends Error {
	/** @param {string} message */
	constructor(message) {
		super(message);
		this.name = 'TargetError';
	}
}

/**
 * The targets KANTERA_ADAPTER names: one, or several separated by commas; unset or empty: node.
 * @param {string | undefined} value
 * @returns {Target[]}
 */
export function targetsOf(value) {
	if (value === undefined || value.trim() === '') return [TARGETS.node];
	const parsed = v.safeParse(NameList, value);
	if (!parsed.success) throw new TargetError(`Invalid configuration:\n  KANTERA_ADAPTER: ${parsed.issues[0].message} (got "${value}")`);
	return parsed.output.map((name) => TARGETS[name]);
}

/**
 * The one target `npm start` runs.
 * @param {string | undefined} value KANTERA_ADAPTER
 * @returns {Target}
 */
export function targetOf(value) {
	const targets = targetsOf(value);
	const [target] = targets;
	if (targets.length !== 1 || target === undefined)
		throw new TargetError(`Invalid configuration:\n  KANTERA_ADAPTER: name the one target to start: node, bun or deno (got "${value}")`);
	return target;
}

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
