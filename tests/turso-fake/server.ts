/**
 * FAKE of the Turso Platform API — the only fake service in Kantera's tests (the real API is on the
 * internet, which tests cannot reach). It answers the documented endpoints Kantera calls, with their
 * documented JSON shapes and status codes:
 *   POST   /v1/organizations/{org}/databases                   {name, group} → 200 {database: {DbId, Hostname, Name}}, 409 if taken
 *   GET    /v1/organizations/{org}/databases/{name}            → {database: {...}} or 404
 *   GET    /v1/organizations/{org}/databases?group=g           → {databases: [...]}
 *   DELETE /v1/organizations/{org}/databases/{name}            → {database: name} or 404
 *   POST   /v1/organizations/{org}/groups/{group}/auth/tokens  → {jwt}
 * Databases it creates really exist: each one is created on the Hrana test server (tests/hrana) under
 * its hostname, which serves it only with a token minted here for its group. Faults can be injected
 * per operation (status code or a dropped answer after the work was done).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import * as v from 'valibot';
import type { HranaServer } from '../hrana';

export type FakeOperation = 'create' | 'get' | 'list' | 'delete' | 'token';

export interface FakeFault {
	/** Answer with this status (and do nothing), or `lost`: do the work, then drop the connection. */
	status: number | 'lost';
	/** How many calls in a row fail (default 1). */
	times?: number;
}

export interface FakeDatabase {
	name: string;
	group: string;
	hostname: string;
	dbId: string;
}

export interface TursoFake {
	url: string;
	org: string;
	group: string;
	apiToken: string;
	databases: Map<string, FakeDatabase>;
	/** Calls received, e.g. `POST /databases`, in order. */
	calls: string[];
	fail(op: FakeOperation, fault: FakeFault): void;
	/** Tokens minted so far (the Hrana server accepts only these). */
	tokens: Set<string>;
	close(): Promise<void>;
}

const CreateBody = v.object({ name: v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,64}$/)), group: v.string() });

export async function startTursoFake(opts: { hrana: HranaServer; org?: string; group?: string; apiToken?: string }): Promise<TursoFake> {
	const org = opts.org ?? 'kantera-test';
	const group = opts.group ?? 'default';
	const apiToken = opts.apiToken ?? `fake-api-${randomBytes(8).toString('hex')}`;
	const databases = new Map<string, FakeDatabase>();
	const tokens = new Set<string>();
	const calls: string[] = [];
	const faults = new Map<FakeOperation, FakeFault & { left: number }>();

	const send = (res: ServerResponse, status: number, body: unknown) => {
		res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
	};
	const shape = (d: FakeDatabase) => ({
		DbId: d.dbId,
		Hostname: d.hostname,
		Name: d.name,
		group: d.group,
		regions: ['fake'],
		primaryRegion: 'fake',
		type: 'logical',
		version: 'fake'
	});

	async function body(req: IncomingMessage): Promise<unknown> {
		let text = '';
		for await (const chunk of req) text += String(chunk);
		try {
			return JSON.parse(text);
		} catch {
			return undefined;
		}
	}

	/** Applies an injected fault: true when the request was answered (or dropped) by it. */
	function faulted(op: FakeOperation, res: ServerResponse, work: () => void): boolean {
		const fault = faults.get(op);
		if (!fault) return false;
		if (--fault.left <= 0) faults.delete(op);
		if (fault.status === 'lost') {
			work();
			res.socket?.destroy();
		} else send(res, fault.status, { error: `injected fault (${fault.status})` });
		return true;
	}

	async function handle(req: IncomingMessage, res: ServerResponse) {
		const url = new URL(req.url ?? '/', 'http://fake');
		if (req.headers.authorization !== `Bearer ${apiToken}`) {
			send(res, 401, { error: 'invalid or missing API token' });
			return;
		}
		const prefix = `/v1/organizations/${org}`;
		if (!url.pathname.startsWith(`${prefix}/`)) {
			send(res, 404, { error: 'organization not found' });
			return;
		}
		const rest = url.pathname.slice(prefix.length);
		calls.push(`${req.method ?? ''} ${rest}`);

		if (req.method === 'POST' && rest === '/databases') {
			const parsed = v.safeParse(CreateBody, await body(req));
			if (!parsed.success) {
				send(res, 400, { error: 'invalid database name or body' });
				return;
			}
			if (parsed.output.group !== group) {
				send(res, 404, { error: `group ${parsed.output.group} not found` });
				return;
			}
			const name = parsed.output.name;
			const create = () => {
				const db: FakeDatabase = { name, group, hostname: `${name}-${org}.turso.fake`, dbId: randomUUID() };
				databases.set(name, db);
				opts.hrana.createDatabase(db.hostname);
				return db;
			};
			if (faulted('create', res, create)) return;
			if (databases.has(name)) {
				send(res, 409, { error: `database ${name} already exists` });
				return;
			}
			const db = create();
			send(res, 200, { database: { DbId: db.dbId, Hostname: db.hostname, Name: db.name } });
			return;
		}
		if (req.method === 'GET' && rest === '/databases') {
			if (faulted('list', res, () => undefined)) return;
			const only = url.searchParams.get('group');
			send(res, 200, { databases: [...databases.values()].filter((d) => !only || d.group === only).map(shape) });
			return;
		}
		const one = /^\/databases\/([^/]+)$/.exec(rest);
		if (one?.[1]) {
			const name = decodeURIComponent(one[1]);
			if (req.method === 'GET') {
				if (faulted('get', res, () => undefined)) return;
				const db = databases.get(name);
				if (db) send(res, 200, { database: shape(db) });
				else send(res, 404, { error: 'database not found' });
				return;
			}
			if (req.method === 'DELETE') {
				const remove = () => {
					const db = databases.get(name);
					if (!db) return;
					databases.delete(name);
					opts.hrana.deleteDatabase(db.hostname);
				};
				if (faulted('delete', res, remove)) return;
				if (!databases.has(name)) {
					send(res, 404, { error: 'database not found' });
					return;
				}
				remove();
				send(res, 200, { database: name });
				return;
			}
		}
		const tokenPath = /^\/groups\/([^/]+)\/auth\/tokens$/.exec(rest);
		if (req.method === 'POST' && tokenPath?.[1]) {
			if (decodeURIComponent(tokenPath[1]) !== group) {
				send(res, 404, { error: 'group not found' });
				return;
			}
			if (faulted('token', res, () => undefined)) return;
			const jwt = `fake-group-token.${randomBytes(16).toString('base64url')}`;
			tokens.add(jwt);
			send(res, 200, { jwt });
			return;
		}
		send(res, 404, { error: `no such endpoint in the fake: ${req.method ?? ''} ${rest}` });
	}

	const server = createServer((req, res) => {
		handle(req, res).catch((err: unknown) => send(res, 500, { error: err instanceof Error ? err.message : String(err) }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const address = server.address();
	if (address === null || typeof address === 'string') throw new Error('the Turso fake is not listening on a TCP port');
	return {
		url: `http://127.0.0.1:${address.port}`,
		org,
		group,
		apiToken,
		databases,
		calls,
		tokens,
		fail(op, fault) {
			faults.set(op, { ...fault, left: fault.times ?? 1 });
		},
		async close() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	};
}
