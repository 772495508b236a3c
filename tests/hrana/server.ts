/**
 * A Hrana-over-HTTP server for tests: the wire protocol of a libSQL server (sqld / Turso), written from
 * the public Hrana 3 specification, serving local libSQL files. It exists because no libSQL server
 * binary can be installed here; the app under test talks to it through the real @libsql/client.
 *
 * Supported: `GET v2`, `GET v3` (version checks), `POST v2/pipeline` and `POST v3/pipeline` (JSON) with
 * every stream request (execute, batch with conditions, sequence, describe, store_sql, close_sql,
 * get_autocommit on v3, close), `POST v3/cursor` (JSON lines), batons that tie interactive
 * transactions to one connection, idle-stream expiry (rolled back), writers queued for a database's
 * write lock as sqld queues them (connections.ts, write-slot.ts), bearer-token checks and an injected
 * per-request delay (a simulated network round trip); `GET /stats` answers its counters as JSON (for a
 * server in another process, cli.ts). Not supported: Protobuf encodings (`GET v3-protobuf` answers
 * 404, so a v3 client falls back to JSON), Hrana over WebSocket, sqld's taking of the write lock from
 * a transaction that has held it for 5 s (here a writer waits `busyWaitMs`, then fails busy).
 *
 * One server holds many databases, one per first path segment: `http://host:port/<name>/v2/pipeline`
 * is database `<name>` (file `<dir>/<name>.db`); a bare `http://host:port/v2/pipeline` is `default`.
 * @libsql/client resolves its endpoints relative to the URL, so database URLs end with a slash.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, existsSync } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import {
	CursorReqBodySchema,
	PipelineReqBodySchema,
	type CursorEntry,
	type Stmt,
	type StreamRequest,
	type StreamResponse,
	type StreamResult
} from './protocol';
import {
	describeStmt,
	executeBatch,
	executeSequence,
	executeStmt,
	openConnection,
	sqlText,
	StmtError,
	toHranaError,
	type BatchTarget,
	type SqlStore
} from './sql';
import { mayWrite } from './write-slot';
import { Connections, type Holder } from './connections';
import { HttpError, readBody, requestSqls, usesIsAutocommit } from './requests';

const DB_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const DEFAULT_DB = 'default';
/** sqld closes streams after a short idle period; clients must not rely on a stream living longer. */
const DEFAULT_STREAM_IDLE_MS = 10_000;
const DEFAULT_BUSY_WAIT_MS = 5_000;

export interface HranaServerOptions {
	/** Where the database files live: `<dir>/<name>.db`. */
	dir: string;
	port?: number;
	host?: string;
	/**
	 * Serve any database name, creating its file on first use (a libSQL server with a database per URL).
	 * When false, only databases made with `createDatabase` exist: the others answer 404, as a Turso
	 * hostname does before its database is created.
	 */
	autoCreate?: boolean;
	/** Checks the bearer token of each request (undefined when none was sent); false answers 401. */
	authorize?: (database: string, token: string | undefined) => boolean;
	/** Waits this long before answering each request: a simulated network round trip. */
	delayMs?: number;
	streamIdleMs?: number;
	busyWaitMs?: number;
	/** Serve HTTPS with this key and certificate (PEM). */
	tls?: { key: string; cert: string };
	/** Called once per request with its database and the SQL it carried (for finding where round trips go). */
	trace?: (database: string, sqls: string[]) => void;
}

export interface HranaStats {
	/** HTTP requests answered, all endpoints. */
	requests: number;
	/** HTTP requests per database name. */
	byDatabase: Map<string, number>;
	/** SQL statements executed (batch steps that ran, each `execute`, each `sequence`). */
	statements: number;
	/** Statements that waited in line for another stream's write lock (write-slot.ts). */
	writeWaits: number;
}

export interface HranaServer {
	/** `http://host:port` (or https). */
	readonly origin: string;
	/** The URL of one database, with the trailing slash @libsql/client needs to keep the path. */
	urlFor(database: string): string;
	createDatabase(database: string): void;
	deleteDatabase(database: string): void;
	hasDatabase(database: string): boolean;
	databaseFile(database: string): string;
	readonly stats: HranaStats;
	resetStats(): void;
	/** Sets the simulated round-trip delay for the following requests. */
	setDelay(ms: number): void;
	close(): Promise<void>;
}

interface Stream extends Holder {
	sqls: SqlStore;
	timer: ReturnType<typeof setTimeout> | undefined;
}

export async function startHranaServer(opts: HranaServerOptions): Promise<HranaServer> {
	mkdirSync(opts.dir, { recursive: true });
	const streamIdleMs = opts.streamIdleMs ?? DEFAULT_STREAM_IDLE_MS;
	const busyWaitMs = opts.busyWaitMs ?? DEFAULT_BUSY_WAIT_MS;
	let delayMs = opts.delayMs ?? 0;
	const streams = new Map<string, Stream>();
	const known = new Set<string>();
	const stats: HranaStats = { requests: 0, byDatabase: new Map(), statements: 0, writeWaits: 0 };

	const fileOf = (database: string) => path.join(opts.dir, `${database}.db`);
	const exists = (database: string) => known.has(database) || (opts.autoCreate === true && DB_NAME.test(database));

	const connections = new Connections({ fileOf, exists, busyWaitMs, onWriteWait: () => stats.writeWaits++ });

	function closeStream(stream: Stream) {
		clearTimeout(stream.timer);
		connections.release(stream);
	}

	function park(stream: Stream): string {
		const baton = randomBytes(18).toString('base64url');
		streams.set(baton, stream);
		// An abandoned stream is rolled back and closed, as a libSQL server does.
		stream.timer = setTimeout(() => {
			streams.delete(baton);
			closeStream(stream);
		}, streamIdleMs);
		stream.timer.unref();
		return baton;
	}

	function takeStream(database: string, baton: string | null | undefined): Stream {
		if (baton === null || baton === undefined) return { database, conn: undefined, sqls: new Map(), timer: undefined };
		const stream = streams.get(baton);
		if (!stream) throw new HttpError(400, 'the stream of this baton is closed or has expired', 'STREAM_EXPIRED');
		if (stream.database !== database) throw new HttpError(400, 'the baton belongs to another database', 'PROTO_ERROR');
		streams.delete(baton);
		clearTimeout(stream.timer);
		return stream;
	}

	/** One statement on the stream's connection, with the write lock when it may write (connections.ts). */
	const onStreamStmt = (stream: Stream, stmt: Stmt) =>
		connections.run(stream, mayWrite(sqlText(stmt, stream.sqls)), (conn) => executeStmt(conn, stmt, stream.sqls));

	const batchTarget = (stream: Stream): BatchTarget => ({
		execute: (stmt) => onStreamStmt(stream, stmt),
		inTransaction: () => stream.conn?.inTransaction ?? false
	});

	async function handleRequest(stream: Stream, request: StreamRequest, version: 2 | 3): Promise<StreamResponse> {
		switch (request.type) {
			case 'close':
				return { type: 'close' };
			case 'execute':
				stats.statements++;
				return { type: 'execute', result: await onStreamStmt(stream, request.stmt) };
			case 'batch':
				if (version < 3 && request.batch.steps.some((s) => usesIsAutocommit(s.condition)))
					throw new StmtError('is_autocommit conditions need Hrana 3', 'PROTO_ERROR');
				return {
					type: 'batch',
					result: await executeBatch(batchTarget(stream), request.batch, (e) =>
						e.type === 'step_begin' || e.type === 'step_error' ? stats.statements++ : undefined
					)
				};
			case 'sequence': {
				const sql = sqlText(request, stream.sqls);
				stats.statements++;
				await connections.run(stream, true, (conn) => executeSequence(conn, sql));
				return { type: 'sequence' };
			}
			case 'describe':
				return { type: 'describe', result: describeStmt(connections.of(stream), sqlText(request, stream.sqls)) };
			case 'store_sql':
				if (stream.sqls.has(request.sql_id)) throw new StmtError(`SQL text ${request.sql_id} is already stored`, 'PROTO_ERROR');
				stream.sqls.set(request.sql_id, request.sql);
				return { type: 'store_sql' };
			case 'close_sql':
				stream.sqls.delete(request.sql_id);
				return { type: 'close_sql' };
			case 'get_autocommit':
				if (version < 3) throw new StmtError('get_autocommit needs Hrana 3', 'PROTO_ERROR');
				return { type: 'get_autocommit', is_autocommit: !connections.of(stream).inTransaction };
		}
	}

	async function pipeline(
		database: string,
		body: unknown,
		version: 2 | 3
	): Promise<{ baton: string | null; base_url: null; results: StreamResult[] }> {
		const parsed = v.safeParse(PipelineReqBodySchema, body);
		if (!parsed.success) throw new HttpError(400, `invalid pipeline request: ${parsed.issues[0].message}`, 'PROTO_ERROR');
		const stream = takeStream(database, parsed.output.baton);
		if (opts.trace) {
			const known = new Map(stream.sqls);
			opts.trace(
				database,
				parsed.output.requests.flatMap((r) => {
					if (r.type === 'store_sql') known.set(r.sql_id, r.sql);
					return r.type === 'store_sql' ? [] : requestSqls(r, known);
				})
			);
		}
		const results: StreamResult[] = [];
		let closed = false;
		for (const request of parsed.output.requests) {
			if (closed) {
				results.push({ type: 'error', error: { message: 'the stream is closed', code: 'STREAM_CLOSED' } });
				continue;
			}
			try {
				results.push({ type: 'ok', response: await handleRequest(stream, request, version) });
				if (request.type === 'close') closed = true;
			} catch (err) {
				results.push({ type: 'error', error: toHranaError(err) });
			}
		}
		if (closed) {
			closeStream(stream);
			return { baton: null, base_url: null, results };
		}
		return { baton: park(stream), base_url: null, results };
	}

	async function cursor(database: string, body: unknown, res: ServerResponse) {
		const parsed = v.safeParse(CursorReqBodySchema, body);
		if (!parsed.success) throw new HttpError(400, `invalid cursor request: ${parsed.issues[0].message}`, 'PROTO_ERROR');
		const stream = takeStream(database, parsed.output.baton);
		opts.trace?.(
			database,
			parsed.output.batch.steps.map((s) => s.stmt.sql ?? `#${s.stmt.sql_id ?? ''}`)
		);
		const entries: CursorEntry[] = [];
		try {
			await executeBatch(batchTarget(stream), parsed.output.batch, (e) => entries.push(e));
		} catch (err) {
			entries.push({ type: 'error', error: toHranaError(err) });
		}
		const baton = park(stream);
		res.writeHead(200, { 'content-type': 'text/plain' });
		res.write(`${JSON.stringify({ baton, base_url: null })}\n`);
		for (const e of entries) res.write(`${JSON.stringify(e)}\n`);
		res.end();
	}

	function route(url: string): { database: string; endpoint: string } {
		const pathname = new URL(url, 'http://x').pathname;
		const parts = pathname.split('/').filter((p) => p !== '');
		const first = parts[0];
		if (first === undefined || /^v\d/.test(first)) return { database: DEFAULT_DB, endpoint: parts.join('/') };
		return { database: decodeURIComponent(first), endpoint: parts.slice(1).join('/') };
	}

	async function handle(req: IncomingMessage, res: ServerResponse) {
		stats.requests++;
		if (req.url === '/health') {
			res.writeHead(200).end('ok');
			return;
		}
		if (req.url === '/stats') {
			res
				.writeHead(200, { 'content-type': 'application/json' })
				.end(JSON.stringify({ ...stats, byDatabase: Object.fromEntries(stats.byDatabase) }));
			return;
		}
		const { database, endpoint } = route(req.url ?? '/');
		stats.byDatabase.set(database, (stats.byDatabase.get(database) ?? 0) + 1);
		if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
		if (!DB_NAME.test(database) || !exists(database)) throw new HttpError(404, `no database named ${database}`, 'NAMESPACE_DOESNT_EXIST');
		const auth = req.headers.authorization;
		const token = auth?.startsWith('Bearer ') ? auth.slice('Bearer '.length) : undefined;
		if (opts.authorize && !opts.authorize(database, token)) throw new HttpError(401, 'authentication failed', 'AUTH_FAILED');
		known.add(database);
		await connections.prepare(database);
		if (req.method === 'GET' && (endpoint === 'v2' || endpoint === 'v3')) {
			res.writeHead(200, { 'content-type': 'text/plain' }).end();
			return;
		}
		if (req.method === 'POST' && (endpoint === 'v2/pipeline' || endpoint === 'v3/pipeline')) {
			const out = await pipeline(database, await readBody(req), endpoint === 'v2/pipeline' ? 2 : 3);
			res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
			return;
		}
		if (req.method === 'POST' && endpoint === 'v3/cursor') {
			await cursor(database, await readBody(req), res);
			return;
		}
		throw new HttpError(404, `no endpoint ${req.method ?? ''} ${endpoint}`, 'NOT_FOUND');
	}

	const listener = (req: IncomingMessage, res: ServerResponse) => {
		handle(req, res).catch((err: unknown) => {
			const status = err instanceof HttpError ? err.status : 500;
			const body = err instanceof HttpError ? { message: err.message, code: err.code } : toHranaError(err);
			if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json' });
			res.end(JSON.stringify(body));
		});
	};
	const server: Server = opts.tls ? createHttpsServer({ key: opts.tls.key, cert: opts.tls.cert }, listener) : createHttpServer(listener);
	// Idle keep-alive connections stay open, as sqld's HTTP server (hyper) keeps them. Node's default closes them after
	// 5 s, which races the client's own 4 s: on a busy machine a request went out on a socket the server was closing
	// ("fetch failed: other side closed"), a network failure no libSQL server causes.
	server.keepAliveTimeout = 0;
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
	});
	const address = server.address();
	if (address === null || typeof address === 'string') throw new Error('the Hrana server is not listening on a TCP port');
	const host = opts.host ?? '127.0.0.1';
	const origin = `${opts.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${address.port}`;

	function dropConnections(database: string) {
		for (const [baton, stream] of streams) {
			if (stream.database !== database) continue;
			streams.delete(baton);
			closeStream(stream);
		}
		connections.drop(database);
	}

	return {
		origin,
		urlFor: (database) => `${origin}/${encodeURIComponent(database)}/`,
		createDatabase(database) {
			if (!DB_NAME.test(database)) throw new Error(`invalid database name ${database}`);
			known.add(database);
			openConnection(fileOf(database)).close();
		},
		deleteDatabase(database) {
			known.delete(database);
			dropConnections(database);
			for (const suffix of ['', '-wal', '-shm']) rmSync(fileOf(database) + suffix, { force: true });
		},
		hasDatabase: (database) => known.has(database) && existsSync(fileOf(database)),
		databaseFile: fileOf,
		stats,
		resetStats() {
			stats.requests = 0;
			stats.statements = 0;
			stats.writeWaits = 0;
			stats.byDatabase.clear();
		},
		setDelay(ms) {
			delayMs = ms;
		},
		async close() {
			for (const database of new Set([...connections.databases(), ...[...streams.values()].map((s) => s.database)]))
				dropConnections(database);
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	};
}
