/**
 * npm run bench:cards
 *
 * Card and lorebook files in and out, in one process: import of a real-sized companion card PNG, of
 * World Info files (5 and 1,000 entries), of a CHARX, and exports as CCv3 JSON, PNG and CHARX, each
 * against the baseline of importing the same world as Kantera's own preset file; then the memory a
 * refused zip bomb leaves behind (run with --expose-gc for a steady figure). Not a test: figures go to
 * docs/performance.md.
 */
import { readFileSync } from 'node:fs';
import { zipSync, strToU8 } from 'fflate';
import { importFile } from '../src/lib/server/presets/import';
import { exportAs } from '../src/lib/server/presets/card-export';
import { exportPreset } from '../src/lib/server/presets/exchange';
import { checkContent } from '../src/lib/server/presets/content';
import { formToInput } from '../src/lib/presets/form';
import { cardPng, base64Json } from '../tests/helpers/card-png';

const glade: unknown = JSON.parse(readFileSync('tests/fixtures/cards/glade-warden.v2.json', 'utf8'));
const wi = readFileSync('tests/fixtures/cards/vale-of-lanterns.world-info.json');
const png = cardPng({ chara: base64Json(glade) });
const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
const preset = checkContent(formToInput(importFile(png).form), 'abcdefghijklmnopqrst');
if (!preset.ok) throw new Error('not ok');
const p = { ...preset.preset, id: 'abcdefghijklmnopqrst' };
const presetFile = enc(exportPreset(p));
const charx = exportAs(p, 'charx', undefined).body;
const bigBook = enc({
	entries: Array.from({ length: 1000 }, (_, i) => ({ key: [`k${i}`, `alias ${i}`], content: `Entry ${i}: `.padEnd(250, 'x'), order: i }))
});
function time(name: string, f: () => unknown, n = 40) {
	for (let i = 0; i < 3; i++) f();
	const t: number[] = [];
	for (let i = 0; i < n; i++) {
		const s = performance.now();
		f();
		t.push(performance.now() - s);
	}
	t.sort((a, b) => a - b);
	const at = (q: number) => (t[Math.floor(n * q)] ?? Number.NaN).toFixed(2);
	console.log(`${name}: median ${at(0.5)} ms, p95 ${at(0.95)} ms`);
}
time('baseline: Kantera preset file import (same preset)', () => importFile(presetFile));
time('card PNG import (3.4k description, 4-entry lorebook)', () => importFile(png));
time('World Info import (5 entries)', () => importFile(wi, 'Vale.json'));
time('World Info import (1,000 entries, 250 chars each)', () => importFile(bigBook, 'Big.json'), 10);
time('CHARX import', () => importFile(charx));
time('export ccv3', () => exportAs(p, 'ccv3', undefined));
time('export png (placeholder picture)', () => exportAs(p, 'png', undefined));
time('export charx', () => exportAs(p, 'charx', undefined));
const card = strToU8(JSON.stringify({ spec: 'chara_card_v3', spec_version: '3.0', data: { name: 'X' } }));
const bomb = zipSync({ 'card.json': card, 'assets/a.bin': new Uint8Array(15 * 1024 * 1024) }, { level: 9 });
(globalThis as { gc?: () => void }).gc?.();
const before = process.memoryUsage();
for (let i = 0; i < 20; i++) {
	try {
		importFile(bomb);
	} catch {
		/* refused */
	}
}
const after = process.memoryUsage();
const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
const packed = (bomb.byteLength / 1024).toFixed(0);
const grown = `rss +${mb(after.rss - before.rss)} MB, arrayBuffers +${mb(after.arrayBuffers - before.arrayBuffers)} MB`;
console.log(`zip bomb (${packed} KB packed, 15 MB declared) refused x20: ${grown}`);
