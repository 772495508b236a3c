/**
 * npm run bench:password-cpu [-- --hashes 20]
 *
 * What one password hash (the app's own `hashPassword`, scrypt N=2^15 r=8) costs in CPU under workerd, next
 * to Node in the same run. Workers bill and cap CPU per request (Free: 10 ms), and a sign-up or a sign-in
 * hashes once. Inside a Worker the clock stands still while code runs (timers only move on I/O), so the cost
 * is measured from outside: a request that hashes `--hashes` times, less one that hashes none, over the count,
 * the best of a few rounds (a hash is one thread's work: on an idle core wall time is CPU time).
 * Not a test: figures go to docs/performance.md.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { hashPassword } from '../src/lib/server/auth/password';

const { values: args } = parseArgs({ options: { hashes: { type: 'string', default: '20' }, rounds: { type: 'string', default: '3' } } });
const HASHES = Number(args.hashes);
const ROUNDS = Number(args.rounds);
const ROOT = path.resolve(import.meta.dirname, '..');

const WORKER = `import { hashPassword } from ${JSON.stringify(path.join(ROOT, 'src/lib/server/auth/password.ts'))};
export default {
	async fetch(request) {
		const n = Number(new URL(request.url).searchParams.get('n') ?? '0');
		for (let i = 0; i < n; i++) await hashPassword('correct horse battery staple');
		return new Response('ok');
	}
};
`;

async function best(run: () => Promise<void>): Promise<number> {
	let min = Infinity;
	for (let i = 0; i < ROUNDS; i++) {
		const t = performance.now();
		await run();
		min = Math.min(min, performance.now() - t);
	}
	return min;
}

async function nodeMs(): Promise<number> {
	await hashPassword('warm-up');
	return (
		(await best(async () => {
			for (let i = 0; i < HASHES; i++) await hashPassword('correct horse battery staple');
		})) / HASHES
	);
}

async function workerdMs(): Promise<number> {
	const dir = mkdtempSync(path.join(tmpdir(), 'kantera-bench-hash-'));
	writeFileSync(path.join(dir, 'worker.js'), WORKER);
	writeFileSync(
		path.join(dir, 'wrangler.json'),
		JSON.stringify({ name: 'bench-hash', main: 'worker.js', compatibility_date: '2026-04-26', compatibility_flags: ['nodejs_compat'] })
	);
	const wrangler = path.join(path.dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin', 'wrangler.js');
	const port = 18_000 + Math.floor(Math.random() * 1_000);
	const child = spawn(process.execPath, [wrangler, 'dev', '--local', '--port', String(port), '--show-interactive-dev-session=false'], {
		cwd: dir,
		stdio: 'ignore',
		env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' }
	});
	try {
		const url = `http://127.0.0.1:${port}/`;
		const deadline = Date.now() + 60_000;
		for (;;) {
			try {
				if ((await fetch(`${url}?n=1`)).ok) break;
			} catch {
				// not listening yet
			}
			if (Date.now() > deadline) throw new Error('wrangler dev did not answer within 60 s');
			await new Promise((r) => setTimeout(r, 200));
		}
		const call = async (n: number) => {
			const res = await fetch(`${url}?n=${n}`);
			if (!res.ok) throw new Error(`the worker answered ${res.status}: ${await res.text()}`);
		};
		const none = await best(() => call(0));
		const many = await best(() => call(HASHES));
		return (many - none) / HASHES;
	} finally {
		child.kill('SIGTERM');
		rmSync(dir, { recursive: true, force: true });
	}
}

const node = await nodeMs();
const workerd = await workerdMs();
console.log(`\nOne password hash (scrypt N=2^15, r=8, p=1), best of ${ROUNDS} rounds of ${HASHES}:\n`);
console.log('| runtime | ms per hash |');
console.log('| --- | --- |');
console.log(`| node ${process.versions.node} | ${node.toFixed(1)} |`);
console.log(`| workerd (wrangler dev --local) | ${workerd.toFixed(1)} |`);
