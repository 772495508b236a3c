/**
 * Plays turns through several app servers at once, as players behind a load balancer would: every request
 * goes to a server picked in turn, so a turn is posted to one, its status is read on another, and once one
 * server reports it committed every server is asked for it. What the run reports:
 *
 * - `serverErrors`: every answer with a 5xx status (none is acceptable);
 * - `stuck`: turns that had not ended `stuckAfterMs` after they were posted;
 * - `staleReads`: a server whose next read, after another server reported a turn committed, did not show
 *   it (its status and the play log are both read), and how long it took to show it;
 * - `failed`: turns that ended other than committed (the mock LLM never fails, so none should);
 * - with `streams`, an event stream open on every server for every session: `streamsMissed`, the
 *   `turn.committed` events a stream had not delivered `stuckAfterMs` after the last turn, and how long
 *   after the turn's commit was first reported each stream delivered it (`streamLagMs`).
 */
import * as v from 'valibot';
import { sseReader } from '../unit/api/sse-reader';

export interface LoadOptions {
	/** The servers' base URLs (`http://127.0.0.1:PORT`). */
	servers: string[];
	sessions: number;
	turnsPerSession: number;
	/** A turn not ended this long after its POST is stuck (and the run stops waiting for its session). */
	stuckAfterMs: number;
	/** How long a stale server is read again before giving up on it. */
	staleForMs?: number;
	pollMs?: number;
	/** Keep an event stream open on every server for every session. */
	streams?: boolean;
}

export interface ServerError {
	server: number;
	method: string;
	path: string;
	status: number;
	body: string;
}

export interface StaleRead {
	server: number;
	sessionId: string;
	turnId: string;
	/** What the stale read missed: the turn's status, or its reply in the play log. */
	missed: 'status' | 'log';
	/** How long after the first read it showed the commit; undefined if it never did within staleForMs. */
	visibleAfterMs: number | undefined;
}

export interface LoadReport {
	turns: number;
	committed: number;
	failed: { turnId: string; status: string }[];
	serverErrors: ServerError[];
	stuck: { sessionId: string; turnId: string; status: string }[];
	staleReads: StaleRead[];
	/** Each committed turn's time from its POST to the first read that showed it committed. */
	turnMs: number[];
	streamsMissed: { server: number; sessionId: string; turnId: string }[];
	streamLagMs: number[];
	durationMs: number;
}

/** One server's event stream of one session: when each turn's `turn.committed` arrived. */
interface Watch {
	server: number;
	sessionId: string;
	committed: Map<string, number>;
	close(): Promise<void>;
}

const Accepted = v.object({ turnId: v.string() });
const Created = v.object({ id: v.string() });
const TurnStatus = v.object({ status: v.string(), reply: v.optional(v.object({ text: v.string() })) });
const Messages = v.object({ messages: v.array(v.object({ id: v.number() })) });
const Committed = v.object({ turnId: v.string() });
const PASSWORD = 'correct horse battery';
const FINISHED = new Set(['committed', 'failed', 'interrupted', 'cancelled']);
const LOG_LIMIT = 200;
const TURN_TAGS = ['#gate', '#harbour', ''];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class Client {
	private next = 0;
	readonly serverErrors: ServerError[] = [];

	constructor(
		readonly servers: string[],
		private readonly cookie: string
	) {}

	/** The next server in turn. */
	pick(): number {
		const server = this.next;
		this.next = (this.next + 1) % this.servers.length;
		return server;
	}

	async request(server: number, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
		const origin = this.servers[server] ?? '';
		const res = await fetch(`${origin}${path}`, {
			method,
			headers: { cookie: this.cookie, origin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
			body: body === undefined ? undefined : JSON.stringify(body)
		});
		const text = await res.text();
		if (res.status >= 500) this.serverErrors.push({ server, method, path, status: res.status, body: text.slice(0, 300) });
		return { status: res.status, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
	}

	/** Opens the session's event stream on `server` and notes every `turn.committed` it delivers. */
	async watch(server: number, sessionId: string): Promise<Watch> {
		const origin = this.servers[server] ?? '';
		const path = `/api/v1/sessions/${sessionId}/events`;
		const res = await fetch(`${origin}${path}`, { headers: { cookie: this.cookie, accept: 'text/event-stream' } });
		if (res.status !== 200) {
			if (res.status >= 500)
				this.serverErrors.push({ server, method: 'GET', path, status: res.status, body: (await res.text()).slice(0, 300) });
			throw new Error(`the event stream answered ${res.status}`);
		}
		const reader = sseReader(res);
		const watch: Watch = { server, sessionId, committed: new Map(), close: () => reader.close() };
		void (async () => {
			for (let frame = await reader.next(); frame; frame = await reader.next()) {
				if (frame.event === 'turn.committed' && frame.data !== undefined)
					watch.committed.set(v.parse(Committed, JSON.parse(frame.data)).turnId, Date.now());
			}
		})().catch(() => undefined);
		return watch;
	}
}

/** Signs a new user up through the form post on `server` and returns the session cookie. */
async function signUp(server: string): Promise<string> {
	const name = `load-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
	const res = await fetch(`${server}/signup`, {
		method: 'POST',
		headers: { origin: server, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ name, password: PASSWORD }),
		redirect: 'manual'
	});
	if (res.status !== 303) throw new Error(`sign-up answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
	const cookie = res.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.join('; ');
	if (cookie === '') throw new Error('sign-up set no cookie');
	return cookie;
}

export async function playLoad(opts: LoadOptions): Promise<LoadReport> {
	const started = Date.now();
	const pollMs = opts.pollMs ?? 50;
	const staleForMs = opts.staleForMs ?? 30_000;
	const first = opts.servers[0];
	if (first === undefined) throw new Error('no servers');
	const client = new Client(opts.servers, await signUp(first));
	const report: LoadReport = {
		turns: 0,
		committed: 0,
		failed: [],
		serverErrors: client.serverErrors,
		stuck: [],
		staleReads: [],
		turnMs: [],
		streamsMissed: [],
		streamLagMs: [],
		durationMs: 0
	};
	const watches: Watch[] = [];
	/** When a turn was first reported committed, by turn id. */
	const committedAt = new Map<string, { sessionId: string; at: number }>();

	/** Reads `read` on `server` until it holds; notes a stale read when the first one did not. */
	async function expectVisible(
		server: number,
		sessionId: string,
		turnId: string,
		missed: StaleRead['missed'],
		read: () => Promise<boolean>
	) {
		if (await read()) return;
		const since = Date.now();
		const stale: StaleRead = { server, sessionId, turnId, missed, visibleAfterMs: undefined };
		report.staleReads.push(stale);
		while (Date.now() - since < staleForMs) {
			await sleep(pollMs);
			if (await read()) {
				stale.visibleAfterMs = Date.now() - since;
				return;
			}
		}
	}

	async function playSession(n: number) {
		const created = await client.request(client.pick(), 'POST', '/api/v1/sessions', { title: `Load ${n}`, language: 'en' });
		if (created.status !== 201) throw new Error(`session creation answered ${created.status}`);
		const sessionId = v.parse(Created, created.json).id;
		const base = `/api/v1/sessions/${sessionId}`;
		if (opts.streams) watches.push(...(await Promise.all(opts.servers.map((_, server) => client.watch(server, sessionId)))));
		for (let t = 1; t <= opts.turnsPerSession; t++) {
			// The mock LLM's adv-play script: #gate and #harbour turns register and stage characters and places (tool calls,
			// whose staged writes run in write transactions of their own), anything else is narrated back.
			const text = `Turn ${t} of session ${n}. ${TURN_TAGS[t % TURN_TAGS.length] ?? ''}`;
			const posted = Date.now();
			report.turns++;
			// A 5xx is counted; the player's client sends the same key again, as the API invites.
			let accepted: { status: number; json: unknown } | undefined;
			for (let attempt = 0; attempt < 5; attempt++) {
				accepted = await client.request(client.pick(), 'POST', `${base}/turns`, { text, idempotencyKey: `load-${n}-${t}-key` });
				if (accepted.status < 500) break;
			}
			if (accepted?.status !== 202 && accepted?.status !== 200) {
				report.failed.push({ turnId: `(not accepted: ${String(accepted?.status)})`, status: 'not accepted' });
				return;
			}
			const { turnId } = v.parse(Accepted, accepted.json);

			let status = 'accepted';
			let seenBy = -1;
			while (!FINISHED.has(status)) {
				if (Date.now() - posted > opts.stuckAfterMs) {
					report.stuck.push({ sessionId, turnId, status });
					return;
				}
				await sleep(pollMs);
				seenBy = client.pick();
				const res = await client.request(seenBy, 'GET', `${base}/turns/${turnId}`);
				if (res.status === 200) status = v.parse(TurnStatus, res.json).status;
			}
			if (status !== 'committed') {
				report.failed.push({ turnId, status });
				continue;
			}
			report.committed++;
			report.turnMs.push(Date.now() - posted);
			committedAt.set(turnId, { sessionId, at: Date.now() });
			// The play log's newest message on the server that reported the commit.
			const newest = async (server: number) => {
				const res = await client.request(server, 'GET', `${base}/messages?limit=${LOG_LIMIT}`);
				return res.status === 200 ? Math.max(0, ...v.parse(Messages, res.json).messages.map((m) => m.id)) : 0;
			};
			const last = await newest(seenBy);
			// Every other server's next read shows the commit one server reported.
			await Promise.all(
				opts.servers.map(async (_, server) => {
					if (server === seenBy) return;
					await expectVisible(server, sessionId, turnId, 'status', async () => {
						const res = await client.request(server, 'GET', `${base}/turns/${turnId}`);
						return res.status === 200 && v.parse(TurnStatus, res.json).status === 'committed';
					});
					await expectVisible(server, sessionId, turnId, 'log', async () => (await newest(server)) >= last);
				})
			);
		}
	}

	try {
		await Promise.all(Array.from({ length: opts.sessions }, (_, n) => playSession(n + 1)));
		await streamsCaughtUp();
	} finally {
		await Promise.all(watches.map((w) => w.close().catch(() => undefined)));
	}
	report.durationMs = Date.now() - started;
	return report;

	/** Waits until every stream delivered every commit of its session (or stuckAfterMs), then notes what is missing and the lags. */
	async function streamsCaughtUp() {
		const missing = () =>
			watches.flatMap((w) =>
				[...committedAt].filter(([turnId, c]) => c.sessionId === w.sessionId && !w.committed.has(turnId)).map(([turnId]) => ({ w, turnId }))
			);
		const since = Date.now();
		while (missing().length > 0 && Date.now() - since < opts.stuckAfterMs) await sleep(pollMs);
		for (const { w, turnId } of missing()) report.streamsMissed.push({ server: w.server, sessionId: w.sessionId, turnId });
		for (const w of watches)
			for (const [turnId, at] of w.committed) {
				const first = committedAt.get(turnId);
				if (first) report.streamLagMs.push(Math.max(0, at - first.at));
			}
	}
}
