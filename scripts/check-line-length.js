// Fails on a line longer than 160 characters in the project's code, and on a source file under src/ longer than 400
// lines (part of `npm run lint`). Prettier wraps code at 140 but leaves long strings, comments and template literals
// alone: prose in them is wrapped by hand (string pieces joined with +, or a template literal's `\` line
// continuations, which add nothing to the text). A file past 400 lines is past what one holds in one's head: split
// it by concern (docs/architecture.md). Characters are code points, a tab counts as one. Data files (JSON, JSONL,
// Markdown) and generated code are not checked; the file length leaves out text, not code: the UI dictionaries and
// the official worlds' prose. Files are the ones git knows, untracked ones included, ignored ones not.
import { trackedFiles } from './lint-lib/tracked-files.js';

const MAX = 160;
const MAX_FILE_LINES = 400;
const CHECKED = /\.(ts|js|mjs|cjs|svelte|css|html)$/;
const GENERATED = new Set(['src/lib/server/db/migrations.generated.ts']);
/** Text rather than code: every message of one UI language, the official worlds' story text. */
const PROSE = [/^src\/lib\/i18n\/[a-z]{2}\.ts$/, /^src\/lib\/server\/worlds\/content\//];

let long = 0;
let big = 0;
for (const [file, text] of trackedFiles(CHECKED)) {
	if (GENERATED.has(file)) continue;
	const lines = text.split('\n');
	lines.forEach((line, i) => {
		const length = [...line].length;
		if (length <= MAX) return;
		long += 1;
		console.error(`${file}:${i + 1}: ${length} characters (at most ${MAX})`);
	});
	const count = text.endsWith('\n') ? lines.length - 1 : lines.length;
	if (file.startsWith('src/') && count > MAX_FILE_LINES && !PROSE.some((re) => re.test(file))) {
		big += 1;
		console.error(`${file}: ${count} lines (at most ${MAX_FILE_LINES})`);
	}
}
if (long > 0) console.error(`${long} line(s) over ${MAX} characters: wrap them (see scripts/check-line-length.js).`);
if (big > 0) console.error(`${big} file(s) over ${MAX_FILE_LINES} lines: split them by concern (see scripts/check-line-length.js).`);
if (long > 0 || big > 0) process.exit(1);
