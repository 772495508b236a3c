/**
 * Where a session's database lives and how it comes and goes. The default places it by the URL
 * template (`KANTERA_SESSION_DB_URL`): a local file, or a database on a libSQL server that exists as
 * soon as it is used. Turso per session (turso/placement.ts) creates and deletes each one through the
 * Platform API instead.
 */
import type { Config } from '../config';
import { isFileUrl, openClient, removeFileDatabase } from './client';
import { isSessionId } from './ids';
import { wipeDatabase } from './wipe';

export class InvalidSessionIdError extends Error {
	constructor() {
		super('invalid session id');
		this.name = 'InvalidSessionIdError';
	}
}

export interface SessionDbLocation {
	url: string;
	authToken: string | undefined;
}

export interface SessionPlacement {
	/** Brings a new session's database into existence (before it is first opened). */
	create(id: string): Promise<void>;
	/** The URL and token of an existing session's database. */
	locate(id: string): Promise<SessionDbLocation>;
	/** Makes the session's data go away for good; the database is already closed. */
	remove(id: string): Promise<void>;
	/** Where to restore a session's database from a backup, bringing the database into existence if it is gone. */
	prepareRestore(id: string): Promise<SessionDbLocation>;
}

export function sessionDbUrl(template: string, id: string): string {
	if (!isSessionId(id)) throw new InvalidSessionIdError();
	return template.replaceAll('{id}', id);
}

export class TemplatePlacement implements SessionPlacement {
	constructor(private readonly cfg: Pick<Config, 'sessionDb'>) {}

	async create(id: string): Promise<void> {
		sessionDbUrl(this.cfg.sessionDb.urlTemplate, id);
	}

	async locate(id: string): Promise<SessionDbLocation> {
		return { url: sessionDbUrl(this.cfg.sessionDb.urlTemplate, id), authToken: this.cfg.sessionDb.authToken };
	}

	prepareRestore(id: string): Promise<SessionDbLocation> {
		return this.locate(id);
	}

	async remove(id: string): Promise<void> {
		const { url, authToken } = await this.locate(id);
		if (isFileUrl(url)) {
			await removeFileDatabase(url);
			return;
		}
		// A plain libSQL server has no call to delete a database: empty it, so no record outlives its session.
		const client = await openClient(url, authToken, 1);
		try {
			await wipeDatabase(client);
		} finally {
			client.close();
		}
	}
}
