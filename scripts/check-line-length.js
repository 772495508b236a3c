// Fails on a line longer than 160 characters in the project's code (part of `npm run lint`). Prettier wraps code at
// 140 but leaves long strings, comments and template literals alone: prose in them is wrapped by hand (string
// pieces joined with +, or a template literal's `\` line continuations, which add nothing to the text).
// Characters are code points, a tab counts as one. Data files (JSON, JSONL, Markdown) and generated code are not
// checked. Files are the ones git knows, untracked ones included, ignored ones not.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MAX = 160;
const CHECKED = /\.(ts|js|mjs|cjs|svelte|css|html)$/;
const GENERATED = new Set(['src/lib/server/db/migrations.generated.ts']);

const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
	.split('\0')
	.filter((file) => CHECKED.test(file) && !GENERATED.has(file));

let long = 0;
for (const file of files) {
	let text;
	try {
		text = readFileSync(file, 'utf8');
	} catch {
		continue; // deleted in the work tree, not yet in the index
	}
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
