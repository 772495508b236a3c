/**
 * npm run bench:workers [-- --delay-ms 0] [--targets node,cloudflare]
 *
 * The Cloudflare target under workerd next to Node, in the same run, each started as the README says
 * (`npm start`, from its own build: `KANTERA_ADAPTER=node,cloudflare npm run build` first), on one Hrana test
 * server (tests/hrana, `--delay-ms` before each answer), s3rver and the scripted mock LLM:
 *   - cold start: `npm start` until /healthz answers (under workerd that includes wrangler's own start and the
 *     first request's app build with the start-up writes, which is not what Cloudflare's edge does);
 *   - database requests per action (each is a subrequest on Workers), counted by the Hrana server until it has
 *     been quiet for a while (background work included): sign-up through the form, a session from a world
 *     (with its images written to the bucket, counted as objects), the play page, the first and a later turn;
 *   - the server's own time per action (its request log line's durationMs; for a turn, its turn line's).
 * Not a test: figures go to docs/performance.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { startHranaServer, type HranaServer } from '../tests/hrana';
import { startLocalS3 } from '../tests/s3';
import { startMockLlm } from '../tests/mock-llm';
import { advPlay } from '../tests/mock-llm/adv-play';
import { startLikeReadme, type StartedServer } from '../tests/e2e/start-server';
import { jsonLogLines } from '../tests/helpers/metrics';

const { values: args } = parseArgs({
	options: {
		'delay-ms': { type: 'string', default: '0' },
		targets: { type: 'string', default: 'node,cloudflare' },
		/** Prints the SQL of each database request of every action (where the requests go). */
		trace: { type: 'boolean', default: false }
	}
});
const DELAY_MS = Number(args['delay-ms']);
const TARGETS = args.targets.split(',');
/** An action is over when the database has had no request for this long. */
const QUIET_MS = 2_500;
const PASSWORD = 'correct horse battery staple';

interface Row {
	target: string;
	action: string;
	requests: number;
	control: number;
	session: number;
	serverMs: number | undefined;
	note?: string;
}

async function quiet(hrana: HranaServer): Promise<void> {
	let last = -1;
	let since = Date.now();
	for (;;) {
		const now = hrana.stats.requests;
		if (now !== last) {
			last = now;
			since = Date.now();
		} else if (Date.now() - since >= QUIET_MS) return;
		await new Promise((r) => setTimeout(r, 100));
	}
}

function counted(hrana: HranaServer, control: string): Pick<Row, 'requests' | 'control' | 'session'> {
	const c = hrana.stats.byDatabase.get(control) ?? 0;
	return { requests: hrana.stats.requests, control: c, session: hrana.stats.requests - c };
}

const LogLine = v.looseObject({
	msg: v.string(),
	route: v.optional(v.nullable(v.string())),
	method: v.optional(v.string()),
	durationMs: v.number()
});

/** The server's own duration of the last request line for `method route`, or of the last turn line. */
function serverMs(
	server: StartedServer,
	from: number,
	match: { msg: 'request'; method: string; route: string } | { msg: 'turn' }
): number | undefined {
	const lines = jsonLogLines(server.output().slice(from)).flatMap((l) => {
		const p = v.safeParse(LogLine, l);
		return p.success ? [p.output] : [];
	});
	const hits = lines.filter((l) => l.msg === match.msg && (match.msg === 'turn' || (l.method === match.method && l.route === match.route)));
	return hits.at(-1)?.durationMs;
}

async function waitForTurnLine(server: StartedServer, from: number): Promise<void> {
	const deadline = Date.now() + 120_000;
	while (!server.output().slice(from).includes('"msg":"turn"')) {
		if (Date.now() > deadline) throw new Error('no turn line within 120 s');
		await new Promise((r) => setTimeout(r, 100));
	}
}

async function measure(target: string, hrana: HranaServer, env: Record<string, string>, s3List: () => Promise<string[]>): Promise<Row[]> {
	const control = `control-${target}`;
	const rows: Row[] = [];
	hrana.resetStats();
	const started = Date.now();
	const server = await startLikeReadme({
		...env,
		KANTERA_ADAPTER: target,
		KANTERA_CONTROL_DB_URL: hrana.urlFor(control),
		KANTERA_SESSION_DB_URL: `${hrana.origin}/${target}-{id}/`
	});
	const coldMs = Date.now() - started;
	await quiet(hrana);
	rows.push({
		target,
		action: 'start (until /healthz answers)',
		...counted(hrana, control),
		serverMs: coldMs,
		note: 'wall time of npm start'
	});
	const base = server.url;
	let cookie = '';
	const call = async (method: string, p: string, body?: { form?: Record<string, string>; json?: unknown }) => {
		const headers: Record<string, string> = { origin: base, cookie };
		let payload: string | undefined;
		if (body?.form) {
			headers['content-type'] = 'application/x-www-form-urlencoded';
			headers.accept = 'text/html';
			payload = new URLSearchParams(body.form).toString();
		} else if (body?.json !== undefined) {
			headers['content-type'] = 'application/json';
			payload = JSON.stringify(body.json);
		}
		const res = await fetch(`${base}${p}`, { method, headers, body: payload, redirect: 'manual' });
		const set = res.headers.get('set-cookie');
		if (set) cookie = set.split(';', 1)[0] ?? '';
		return res;
	};
	const step = async (action: string, run: () => Promise<void>, line: Parameters<typeof serverMs>[2], note?: string) => {
		hrana.resetStats();
		if (args.trace) console.log(`${target}: ${action}`);
		const from = server.output().length;
		await run();
		await quiet(hrana);
		rows.push({ target, action, ...counted(hrana, control), serverMs: serverMs(server, from, line), ...(note ? { note } : {}) });
	};
	try {
		await step(
			'sign-up (form post)',
			async () => {
				const res = await call('POST', '/signup', { form: { name: `bench${Date.now() % 1_000_000}`, password: PASSWORD } });
				if (res.status !== 303) throw new Error(`sign-up answered ${res.status}`);
			},
			{ msg: 'request', method: 'POST', route: '/signup' }
		);
		let id = '';
		const before = (await s3List()).length;
		await step(
			'a session from a world (API), its images included',
			async () => {
				const res = await call('POST', '/api/v1/sessions', { json: { world: 'sword-and-sorcery' } });
				if (res.status !== 201) throw new Error(`session creation answered ${res.status}`);
				id = v.parse(v.object({ id: v.string() }), await res.json()).id;
			},
			{ msg: 'request', method: 'POST', route: '/api/v1/sessions' }
		);
		const last = rows.at(-1);
		if (last) last.note = `${(await s3List()).length - before} objects written to the bucket`;
		await step(
			'the play page',
			async () => {
				const res = await call('GET', `/sessions/${id}`);
				if (res.status !== 200) throw new Error(`the play page answered ${res.status}`);
				await res.text();
			},
			{ msg: 'request', method: 'GET', route: '/sessions/[id]' }
		);
		for (const [action, text] of [
			['first turn (POST to commit, 2 LLM calls)', 'I walk up to the north gate. #gate'],
			['a later turn (1 LLM call)', 'I nod to the guards.']
		] as const) {
			await step(
				action,
				async () => {
					const from = server.output().length;
					const res = await call('POST', `/api/v1/sessions/${id}/turns`, { json: { text, idempotencyKey: `bench-${Date.now()}` } });
					if (res.status !== 202) throw new Error(`the turn answered ${res.status}`);
					await waitForTurnLine(server, from);
				},
				{ msg: 'turn' }
			);
		}
	} finally {
		await server.stop();
	}
	return rows;
}

const dir = mkdtempSync(path.join(tmpdir(), 'kantera-bench-workers-'));
const hrana = await startHranaServer({
	dir,
	autoCreate: true,
	delayMs: DELAY_MS,
	...(args.trace
		? { trace: (database: string, sqls: string[]) => console.log(`  [${database}] ${sqls.map((q) => q.slice(0, 90)).join(' | ')}`) }
		: {})
});
const s3 = await startLocalS3();
const mock = await startMockLlm({ handler: advPlay() });
const env = {
	...s3.env(),
	OPENAI_BASE_URL: mock.openaiBaseUrl,
	OPENAI_API_KEY: 'bench-key',
	KANTERA_LLM_MODEL: 'mock-model'
};
try {
	const rows: Row[] = [];
	for (const target of TARGETS) rows.push(...(await measure(target, hrana, env, () => s3.list())));
	console.log(`\nDatabase requests per action at ${DELAY_MS} ms per request (Hrana test server), server time in ms:\n`);
	console.log('| target | action | requests | control | session | server ms | note |');
	console.log('| --- | --- | --- | --- | --- | --- | --- |');
	for (const r of rows)
		console.log(`| ${r.target} | ${r.action} | ${r.requests} | ${r.control} | ${r.session} | ${r.serverMs ?? '—'} | ${r.note ?? ''} |`);
} finally {
	await mock.close();
	await s3.close();
	await hrana.close();
	rmSync(dir, { recursive: true, force: true });
}
