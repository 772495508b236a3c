/** The HTTP side of the test server's requests: reading a body, its errors, what a request carries. */
import type { IncomingMessage } from 'node:http';
import type { BatchCond, StreamRequest } from './protocol';
import type { SqlStore } from './sql';

const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** A request refused as a whole (an HTTP status), as opposed to a statement's error inside a pipeline. */
export class HttpError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly code: string
	) {
		super(message);
	}
}

export function readBody(req: IncomingMessage): Promise<unknown> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (c: Buffer) => {
			size += c.length;
			if (size > MAX_BODY_BYTES) {
				reject(new HttpError(413, 'request body too large', 'BODY_TOO_LARGE'));
				req.destroy();
				return;
			}
			chunks.push(c);
		});
		req.on('end', () => {
			try {
				resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
			} catch {
				reject(new HttpError(400, 'request body is not JSON', 'PROTO_ERROR'));
			}
		});
		req.on('error', reject);
	});
}

const stmtSql = (s: { sql?: string | null; sql_id?: number | null }, stored: SqlStore) =>
	s.sql ?? stored.get(s.sql_id ?? -1) ?? `#${s.sql_id ?? ''}`;

/** The SQL a request carries, for tracing (stored SQL texts resolved). */
export function requestSqls(r: StreamRequest, stored: SqlStore): string[] {
	switch (r.type) {
		case 'execute':
			return [stmtSql(r.stmt, stored)];
		case 'batch':
			return r.batch.steps.map((s) => stmtSql(s.stmt, stored));
		case 'sequence':
		case 'describe':
			return [stmtSql(r, stored)];
		default:
			return [r.type];
	}
}

export function usesIsAutocommit(cond: BatchCond | null | undefined): boolean {
	if (!cond) return false;
	switch (cond.type) {
		case 'is_autocommit':
			return true;
		case 'not':
			return usesIsAutocommit(cond.cond);
		case 'and':
		case 'or':
			return cond.conds.some(usesIsAutocommit);
		default:
			return false;
	}
}
