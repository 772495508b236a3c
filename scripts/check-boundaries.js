// The module boundaries of src/lib/server (part of `npm run lint`). Fails when:
// - code outside a capability folder (api, db, turn, …) imports one of that folder's modules other than its index.ts.
//   A capability's index.ts is its public surface: what it exports is what others may use, so its internals can move
//   without edits elsewhere. Imports inside one capability, nested folders included, are free; SUB_BARRELS lists the
//   few documented smaller surfaces.
// - a capability imports one in a higher layer, or capabilities import one another in a circle (the layer table is
//   scripts/lint-lib/layers.js; type-only imports count), or a folder is in no layer;
// - docs/architecture.md's layer list or its capability table differs from the folders and the layer table.
// Files are the ones git knows under src, untracked ones included; tests may reach internals. Specifiers are resolved
// like Vite does for the project: relative paths and $lib/.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { trackedFiles } from './lint-lib/tracked-files.js';
import { ALLOWED_UPWARD, LAYERS } from './lint-lib/layers.js';

const SERVER = 'src/lib/server/';
const APP = 'app.ts';
const DOC = 'docs/architecture.md';
// Smaller public surfaces beside an index.ts, each for a reason its index cannot serve.
const SUB_BARRELS = new Set([
	// Node-only backups, loaded on demand (`await import`) so deployments without backups never load them.
	'db/backup/index',
	// The native libSQL driver and node:fs stay out of db's index (client.ts loads them only for `file:` URLs).
	'db/local-files'
]);
const CHECKED = /\.(ts|js|svelte)$/;
// Static imports and re-exports (`from '…'`), side-effect imports (`import '…'`) and dynamic `import('…')`.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)(['"])([^'"\n]+)\1/g;
// The first line of an import or export statement; `type` makes the whole statement type-only.
const STATEMENT = /^\s*(?:import|export)\b(\s+type\b)?/;

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
 * The place in the layer table of a file or an import's extension-less target: its capability, `app.ts`, or null.
 * @param {string} bare a path without its .ts/.js extension
 * @returns {string | null}
 */
function layerNodeOf(bare) {
	return bare === SERVER + 'app' ? APP : capabilityOf(bare + '/x');
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

/**
 * Every import of a file: its specifier, its line and whether it brings in types only (`import type`, `export type`,
 * `typeof import('…')`). A multi-line statement's `from` belongs to the statement opened last.
 * @param {string} text
 * @returns {Generator<{ specifier: string; line: number; typeOnly: boolean }>}
 */
function* importsOf(text) {
	let statementTypeOnly = false;
	for (const [i, line] of text.split('\n').entries()) {
		const opening = STATEMENT.exec(line);
		if (opening) statementTypeOnly = opening[1] !== undefined;
		for (const match of line.matchAll(SPECIFIER)) {
			const typeOnly = match[0].startsWith('from')
				? statementTypeOnly
				: /\btypeof\s*$/.test(line.slice(0, match.index)) && match[0].includes('(');
			yield { specifier: match[2] ?? '', line: i + 1, typeOnly };
		}
	}
}

/** @typedef {{ file: string; line: number; specifier: string; typeOnly: boolean }} Site */

/** @type {string[]} */
const crossings = [];
/** @type {Map<string, Map<string, Site[]>>} capability (or app.ts) → what it imports → where */
const graph = new Map();
/** @type {Set<string>} */
const folders = new Set();
/** @type {string[]} */
const strays = [];

for (const [file, text] of trackedFiles(CHECKED, ['src'])) {
	const own = capabilityOf(file);
	if (own !== null) folders.add(own);
	else if (file.startsWith(SERVER) && file !== SERVER + APP) strays.push(file);
	const ownNode = layerNodeOf(file.replace(/\.(ts|js)$/, ''));
	for (const { specifier, line, typeOnly } of importsOf(text)) {
		const target = resolve(file, specifier);
		if (target === null) continue;
		const bare = target.replace(/\.(ts|js)$/, '');
		const capability = capabilityOf(bare + '/x');
		const inner = capability === null ? '' : bare.slice(SERVER.length);
		if (
			capability !== null &&
			capability !== own &&
			inner !== capability &&
			inner !== capability + '/index' &&
			!SUB_BARRELS.has(inner) &&
			!SUB_BARRELS.has(inner + '/index')
		)
			crossings.push(
				`${file}:${line}: imports '${specifier}', inside ${capability}/: import it from $lib/server/${capability} (its index.ts)`
			);
		const targetNode = layerNodeOf(bare);
		if (ownNode === null || targetNode === null || targetNode === ownNode) continue;
		const out = graph.get(ownNode) ?? /** @type {Map<string, Site[]>} */ (new Map());
		graph.set(ownNode, out);
		const sites = out.get(targetNode) ?? [];
		sites.push({ file, line, specifier, typeOnly });
		out.set(targetNode, sites);
	}
}

/** @type {Map<string, number>} */
const layerOf = new Map(LAYERS.flatMap((names, i) => names.map((name) => /** @type {[string, number]} */ ([name, i]))));
/** @param {Site} site */
const where = (site) => `${site.file}:${site.line}: imports '${site.specifier}'${site.typeOnly ? ' (type only)' : ''}`;

/** @type {string[]} */
const unplaced = [];
for (const name of [...folders, APP].sort()) {
	if (!layerOf.has(name)) unplaced.push(`${name}: in no layer of scripts/lint-lib/layers.js: add it above what it imports`);
}
for (const name of layerOf.keys()) {
	if (name !== APP && !folders.has(name)) unplaced.push(`${name}: in the layer table but there is no src/lib/server/${name}/`);
}
for (const file of strays) unplaced.push(`${file}: outside a capability folder (only ${APP} sits at the top of src/lib/server)`);

/** @type {string[]} */
const upward = [];
for (const [from, targets] of graph) {
	for (const [to, sites] of targets) {
		const a = layerOf.get(from);
		const b = layerOf.get(to);
		if (a === undefined || b === undefined || b <= a || ALLOWED_UPWARD.has(`${from} -> ${to}`)) continue;
		for (const site of sites) upward.push(`${where(site)}: ${from} (layer ${a + 1}) may not import ${to} (layer ${b + 1})`);
	}
}

/**
 * The strongly connected components of the import graph with more than one member (Tarjan's algorithm).
 * @returns {string[][]}
 */
function circles() {
	/** @type {Map<string, { index: number; low: number }>} */
	const seen = new Map();
	/** @type {string[]} */
	const stack = [];
	/** @type {string[][]} */
	const found = [];
	/** @param {string} node */
	const visit = (node) => {
		const mark = { index: seen.size, low: seen.size };
		seen.set(node, mark);
		stack.push(node);
		for (const next of graph.get(node)?.keys() ?? []) {
			const other = seen.get(next);
			if (other === undefined) {
				visit(next);
				mark.low = Math.min(mark.low, seen.get(next)?.low ?? mark.low);
			} else if (stack.includes(next)) mark.low = Math.min(mark.low, other.index);
		}
		if (mark.low !== mark.index) return;
		/** @type {string[]} */
		const component = [];
		let member;
		do {
			member = stack.pop();
			if (member !== undefined) component.push(member);
		} while (member !== node && member !== undefined);
		if (component.length > 1) found.push(component.sort());
	};
	for (const node of [...graph.keys()].sort()) if (!seen.has(node)) visit(node);
	return found;
}

/**
 * A shortest way from `start` back to itself inside one component, as the list of nodes it passes.
 * @param {string} start
 * @param {Set<string>} members
 * @returns {string[]}
 */
function loopFrom(start, members) {
	/** @type {Map<string, string>} */
	const cameFrom = new Map();
	const queue = [start];
	while (queue.length > 0) {
		const node = /** @type {string} */ (queue.shift());
		for (const next of graph.get(node)?.keys() ?? []) {
			if (!members.has(next)) continue;
			if (next === start) {
				const loop = [node];
				for (let back = cameFrom.get(node); back !== undefined; back = cameFrom.get(back)) loop.unshift(back);
				return [...loop, start];
			}
			if (!cameFrom.has(next)) {
				cameFrom.set(next, node);
				queue.push(next);
			}
		}
	}
	return [start];
}

/** @type {string[]} */
const cycles = [];
for (const component of circles()) {
	const loop = loopFrom(component[0] ?? '', new Set(component));
	const edges = loop.slice(1).map((to, i) => {
		const from = loop[i] ?? '';
		const site = graph.get(from)?.get(to)?.[0];
		return `  ${from} -> ${to}: ${site ? where(site) : '?'}`;
	});
	cycles.push(`import cycle between capabilities: ${loop.join(' -> ')} (all of ${component.join(', ')})\n${edges.join('\n')}`);
}

// The map must print the same table: the layer list in "Direction of imports" and a row per folder in "Capabilities".
/** @type {string[]} */
const drift = [];
const doc = readFileSync(DOC, 'utf8');
const chainMatch = /lower layers know nothing of higher ones[^:]*:([\s\S]*?)→ routes/.exec(doc);
const printed = (chainMatch?.[1] ?? '').split('→').map((part) => [...part.matchAll(/`([^`]+)`/g)].map((m) => m[1]).join(', '));
const expected = LAYERS.map((names) => names.join(', '));
if (printed.join(' → ') !== expected.join(' → '))
	drift.push(
		`${DOC}: the layer list ("lower layers know nothing of higher ones: … → routes") reads\n  ${printed.join(' → ')}\n` +
			`but scripts/lint-lib/layers.js has\n  ${expected.join(' → ')}`
	);
const rows = new Set([...doc.matchAll(/^\| `([^`]+?)\/?` \|/gm)].map((m) => m[1]));
for (const name of [...folders, APP].sort()) if (!rows.has(name)) drift.push(`${DOC}: no row for \`${name}\` in the capability table`);

/**
 * @param {string[]} lines
 * @param {string} summary
 */
function report(lines, summary) {
	for (const line of lines) console.error(line);
	if (lines.length > 0) console.error(summary);
}
report(
	crossings,
	`${crossings.length} import(s) reach past another capability's index.ts: export what is needed there (see scripts/check-boundaries.js).`
);
report(unplaced, `${unplaced.length} problem(s) with the layer table (scripts/lint-lib/layers.js).`);
report(
	upward,
	`${upward.length} import(s) go up the layers of scripts/lint-lib/layers.js: move what is imported down, or have the lower ` +
		`capability declare the narrow interface it needs (a type counts too).`
);
report(
	cycles,
	`${cycles.length} import cycle(s) between capabilities (type-only imports count): move what one side needs of the other down.`
);
report(drift, `${drift.length} difference(s) between ${DOC} and the code: fix the map.`);
if (crossings.length + unplaced.length + upward.length + cycles.length + drift.length > 0) process.exit(1);
