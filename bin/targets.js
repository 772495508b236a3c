// @ts-check
// The runtimes Kantera builds for, chosen by KANTERA_ADAPTER at build time (svelte.config.js) and at
// start (`npm start`, bin/start.js). Each target builds into its own folder, so building one never
// leaves another's output half-replaced and `npm start` can tell whether the target it is asked for
// has been built.
import * as v from 'valibot';

/** @typedef {'node' | 'bun' | 'deno' | 'cloudflare'} TargetName */

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
	deno: { name: 'deno', out: '.deno-deploy', entry: '.deno-deploy/server/index.js', server: 'server-deno.js' },
	// A Worker run by wrangler under workerd (`npm start`: wrangler dev) or deployed with wrangler; wrangler.jsonc says where.
	cloudflare: { name: 'cloudflare', out: 'build-cloudflare', entry: 'build-cloudflare/worker.js', server: 'server-cloudflare.js' }
};

const Name = v.picklist(['node', 'bun', 'deno', 'cloudflare'], 'must be node, bun, deno or cloudflare');
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
		throw new TargetError(
			`Invalid configuration:\n  KANTERA_ADAPTER: name the one target to start: node, bun, deno or cloudflare (got "${value}")`
		);
	return target;
}
