// Fails on a line longer than 160 characters in the project's code (part of `npm run lint`). Prettier wraps code at
// 140 but leaves long strings, comments and template literals alone: prose in them is wrapped by hand (string
// pieces joined with +, or a template literal's `\` line continuations, which add nothing to the text).
// Characters are code points, a tab counts as one. Data files (JSON, JSONL, Markdown) and generated code are not
// checked. Files are the ones git knows, untracked ones included, ignored ones not.
import { trackedFiles } from './lint-lib/tracked-files.js';

const MAX = 160;
const CHECKED = /\.(ts|js|mjs|cjs|svelte|css|html)$/;
const GENERATED = new Set(['src/lib/server/db/migrations.generated.ts']);

let long = 0;
for (const [file, text] of trackedFiles(CHECKED)) {
	if (GENERATED.has(file)) continue;
	text.split('\n').forEach((line, i) => {
		const length = [...line].length;
		if (length <= MAX) return;
		long += 1;
		console.error(`${file}:${i + 1}: ${length} characters (at most ${MAX})`);
	});
}
if (long > 0) {
	console.error(`${long} line(s) over ${MAX} characters: wrap them (see scripts/check-line-length.js).`);
	process.exit(1);
}
