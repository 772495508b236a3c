// Fails when code outside a capability folder of src/lib/server (api, db, turn, …) imports one of that folder's
// modules other than its index.ts (part of `npm run lint`). A capability's index.ts is its public surface: what it
// exports is what others may use, so its internals can move without edits elsewhere. Imports inside one capability,
// nested folders included, are free; SUB_BARRELS lists the few documented smaller surfaces. Files are the ones git
// knows under src, untracked ones included; tests may reach internals. Specifiers are resolved like Vite does for
// the project: relative paths and $lib/.
import path from 'node:path';
import { trackedFiles } from './lint-lib/tracked-files.js';

const SERVER = 'src/lib/server/';
// Smaller public surfaces beside an index.ts, each for a reason its index cannot serve.
const SUB_BARRELS = new Set([
	// Node-only backups, loaded on demand (`await import`) so deployments without backups never load them.
	'db/backup/index',
	// The native libSQL driver and node:fs stay out of db's index (client.ts loads them only for `file:` URLs).
	'db/local-files',
	// A leaf: hooks render API errors with it, and api's index imports hooks (its endpoint's guards), so hooks
	// importing api's index would make the two indexes import each other.
	'api/respond'
]);
const CHECKED = /\.(ts|js|svelte)$/;
// Static imports and re-exports (`from '…'`), side-effect imports (`import '…'`) and dynamic `import('…')`.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)(['"])([^'"\n]+)\1/g;

/**
 * The capability folder a path under src/lib/server belongs to, or null (src/lib/server/app.ts, routes, …).
 * @param {string} file
 * @returns {string | null}
 */
function capabilityOf(file) {
	if (!file.startsWith(SERVER)) return null;
	const [first, ...rest] = file.slice(SERVER.length).split('/');
	return rest.length > 0 && first !== undefined ? first : null;
}

/**
 * The repository-relative path a specifier names, or null for a package.
 * @param {string} from the importing file
 * @param {string} specifier
 * @returns {string | null}
 */
function resolve(from, specifier) {
	if (specifier.startsWith('$lib/')) return path.posix.normalize('src/lib/' + specifier.slice('$lib/'.length));
	if (specifier === '$lib') return 'src/lib';
	if (specifier.startsWith('.')) return path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
	return null;
}

let crossings = 0;
for (const [file, text] of trackedFiles(CHECKED, ['src'])) {
	const own = capabilityOf(file);
	const lines = text.split('\n');
	lines.forEach((line, i) => {
		for (const [, , specifier = ''] of line.matchAll(SPECIFIER)) {
			const target = resolve(file, specifier);
			if (target === null) continue;
			const bare = target.replace(/\.(ts|js)$/, '');
			const capability = capabilityOf(bare + '/x');
			if (capability === null || capability === own) continue;
			const inner = bare.slice(SERVER.length);
			if (inner === capability || inner === capability + '/index') continue;
			if (SUB_BARRELS.has(inner) || SUB_BARRELS.has(inner + '/index')) continue;
			crossings += 1;
			console.error(
				`${file}:${i + 1}: imports '${specifier}', inside ${capability}/: import it from $lib/server/${capability} (its index.ts)`
			);
		}
	});
}
if (crossings > 0) {
	console.error(
		`${crossings} import(s) reach past another capability's index.ts: export what is needed there (see scripts/check-boundaries.js).`
	);
	process.exit(1);
}
