// @ts-check
// The build of the Cloudflare Workers target (KANTERA_ADAPTER=cloudflare, bin/targets.js): adapter-cloudflare writes
// SvelteKit's Worker and the static files where wrangler.jsonc says (`main`, `assets.directory`), and this adapter
// around it then
// - makes the folder whole: SvelteKit's Worker imports the server it was built from out of .svelte-kit/, which the
//   next build of any target replaces, so the server output and the route manifest are copied in beside it;
// - puts our Worker in front (bin/cloudflare-worker.js): it sends each session's requests to the session's own
//   Durable Object and exports that object's class, which SvelteKit's Worker has no way to do.
// wrangler bundles the folder (with the project's node_modules) when it runs or deploys it.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What SvelteKit's Worker is renamed to; our Worker (`main`) imports it. */
export const SVELTEKIT_WORKER = 'sveltekit.js';

/**
 * @param {string} out the target's folder, as wrangler.jsonc names it (`main` is `<out>/worker.js`)
 * @returns {Promise<import('@sveltejs/kit').Adapter>}
 */
export async function cloudflareAdapter(out) {
	const { default: adapter } = await import('@sveltejs/adapter-cloudflare');
	const inner = adapter({ config: 'wrangler.jsonc' });
	return {
		...inner,
		name: 'kantera (cloudflare)',
		async adapt(builder) {
			rmSync(out, { recursive: true, force: true });
			await inner.adapt(builder);
			const server = builder.getServerDirectory();
			const manifest = builder.getBuildDirectory('cloudflare-tmp');
			// The same two folders under out/, at the same distance from each other: the manifest's imports of the
			// server's nodes (`../output/server/…`) hold as they are.
			cpSync(server, path.join(out, 'output', 'server'), { recursive: true });
			cpSync(manifest, path.join(out, 'cloudflare-tmp'), { recursive: true });
			const worker = path.join(out, 'worker.js');
			const svelteKit = readFileSync(worker, 'utf8')
				.replaceAll(relativeImport(out, path.join(server, 'index.js')), './output/server/index.js')
				.replaceAll(relativeImport(out, path.join(manifest, 'manifest.js')), './cloudflare-tmp/manifest.js');
			writeFileSync(path.join(out, SVELTEKIT_WORKER), svelteKit);
			rmSync(worker);
			writeFileSync(
				worker,
				`// Written by bin/cloudflare-build.js: the Worker is bin/cloudflare-worker.js, in front of SvelteKit's (${SVELTEKIT_WORKER}).\n` +
					`export { default, PlaySession } from '${relativeImport(out, 'bin/cloudflare-worker.js')}';\n`
			);
		}
	};
}

/**
 * How a module in folder `from` imports `file`, as adapter-cloudflare writes it (`./` and forward slashes).
 * @param {string} from
 * @param {string} file
 */
function relativeImport(from, file) {
	return `./${path.relative(path.resolve(from), path.resolve(file)).split(path.sep).join('/')}`;
}
