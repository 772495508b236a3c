/**
 * The few calls of the Turso Platform API that per-session databases need, over `fetch` (no SDK: five
 * endpoints, and `fetch` exists on every runtime Kantera targets). Every response is validated.
 *   POST   /v1/organizations/{org}/databases                      create  {name, group}
 *   GET    /v1/organizations/{org}/databases/{name}               retrieve
 *   GET    /v1/organizations/{org}/databases?group={group}        list
 *   DELETE /v1/organizations/{org}/databases/{name}               delete
 *   POST   /v1/organizations/{org}/groups/{group}/auth/tokens     mint a group token (?expiration=&authorization=full-access)
 */
import * as v from 'valibot';
import type { TursoConfig } from '../../config';

/** How long one Platform API call may take before it counts as failed (and is retried). */
const TURSO_API_TIMEOUT_MS = 15_000;

const DatabaseSchema = v.object({ Name: v.string(), Hostname: v.string(), DbId: v.optional(v.string()), group: v.optional(v.string()) });
const OneDatabase = v.object({ database: DatabaseSchema });
const Databases = v.object({ databases: v.array(DatabaseSchema) });
const Token = v.object({ jwt: v.pipe(v.string(), v.minLength(1)) });
const ErrorBody = v.object({ error: v.string() });

export interface TursoDatabase {
	name: string;
	hostname: string;
	group: string | undefined;
}

export class TursoApiError extends Error {
	constructor(
		message: string,
		/** HTTP status, or undefined when no answer came (network, timeout). */
		readonly status: number | undefined
	) {
		super(message);
		this.name = 'TursoApiError';
	}

	/** Worth trying again: no answer, a rate limit or a server error. */
	get transient(): boolean {
		return this.status === undefined || this.status === 429 || this.status >= 500;
	}
}

const toDatabase = (d: v.InferOutput<typeof DatabaseSchema>): TursoDatabase => ({ name: d.Name, hostname: d.Hostname, group: d.group });

export class TursoPlatformApi {
	constructor(
		private readonly cfg: TursoConfig,
		private readonly fetchImpl: typeof fetch = fetch
	) {}

	private async call<S extends v.GenericSchema>(
		method: string,
		pathAndQuery: string,
		schema: S,
		body?: unknown
	): Promise<v.InferOutput<S>> {
		const url = `${this.cfg.apiUrl}/v1/organizations/${encodeURIComponent(this.cfg.org)}${pathAndQuery}`;
		let res: Response;
		try {
			res = await this.fetchImpl(url, {
				method,
				headers: { authorization: `Bearer ${this.cfg.apiToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
				body: body === undefined ? undefined : JSON.stringify(body),
				signal: AbortSignal.timeout(TURSO_API_TIMEOUT_MS)
			});
		} catch (err) {
			throw new TursoApiError(
				`Turso Platform API unreachable (${method} ${pathAndQuery}): ${err instanceof Error ? err.message : String(err)}`,
				undefined
			);
		}
		const text = await res.text();
		let json: unknown;
		try {
			json = text === '' ? undefined : JSON.parse(text);
		} catch {
			json = undefined;
		}
		if (!res.ok) {
			const parsed = v.safeParse(ErrorBody, json);
			throw new TursoApiError(
				`Turso Platform API ${method} ${pathAndQuery}: ${res.status} ${parsed.success ? parsed.output.error : res.statusText}`,
				res.status
			);
		}
		const parsed = v.safeParse(schema, json);
		if (!parsed.success)
			throw new TursoApiError(`Turso Platform API ${method} ${pathAndQuery}: unexpected answer (${parsed.issues[0].message})`, res.status);
		return parsed.output;
	}

	async createDatabase(name: string): Promise<TursoDatabase> {
		const out = await this.call('POST', '/databases', OneDatabase, { name, group: this.cfg.group });
		return toDatabase(out.database);
	}

	/** The database, or undefined when it does not exist. */
	async getDatabase(name: string): Promise<TursoDatabase | undefined> {
		try {
			return toDatabase((await this.call('GET', `/databases/${encodeURIComponent(name)}`, OneDatabase)).database);
		} catch (err) {
			if (err instanceof TursoApiError && err.status === 404) return undefined;
			throw err;
		}
	}

	async listDatabases(): Promise<TursoDatabase[]> {
		const out = await this.call('GET', `/databases?group=${encodeURIComponent(this.cfg.group)}`, Databases);
		return out.databases.map(toDatabase);
	}

	/** Deletes a database; one that is already gone counts as deleted. */
	async deleteDatabase(name: string): Promise<void> {
		try {
			await this.call('DELETE', `/databases/${encodeURIComponent(name)}`, v.unknown());
		} catch (err) {
			if (err instanceof TursoApiError && err.status === 404) return;
			throw err;
		}
	}

	/** A token for every database of the group (full access), valid for `expiration` (e.g. `7d`). */
	async mintGroupToken(expiration: string): Promise<string> {
		const query = `?expiration=${encodeURIComponent(expiration)}&authorization=full-access`;
		const out = await this.call('POST', `/groups/${encodeURIComponent(this.cfg.group)}/auth/tokens${query}`, Token);
		return out.jwt;
	}
}
