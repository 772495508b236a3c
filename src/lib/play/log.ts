/**
 * The browser's one reader of the play log (`GET /api/v1/sessions/{id}/backlog`): what a committed
 * turn added (`?after=`), the backlog's pages (`?before=`, the latest). The answer is outside data,
 * even from our own server: a proxy's error page or an older server fails clearly here instead of
 * rendering garbage, and an image URL that is not our image route is drawn as a placeholder.
 */
import * as v from 'valibot';
import { LogPageSchema, type LogPageDto } from '../types/log';

/** A failed read: the status (0 when the network failed) for the UI to word. */
class LogLoadError extends Error {
	constructor(
		readonly status: number,
		message: string
	) {
		super(message);
		this.name = 'LogLoadError';
	}
}

export interface LogPageQuery {
	before?: number | undefined;
	after?: number | undefined;
	limit: number;
}

export async function fetchLogPage(fetcher: typeof fetch, sessionId: string, q: LogPageQuery, signal?: AbortSignal): Promise<LogPageDto> {
	const params = new URLSearchParams({ limit: String(q.limit) });
	if (q.before !== undefined) params.set('before', String(q.before));
	if (q.after !== undefined) params.set('after', String(q.after));
	let res: Response;
	try {
		res = await fetcher(`/api/v1/sessions/${encodeURIComponent(sessionId)}/backlog?${params.toString()}`, {
			headers: { accept: 'application/json' },
			signal
		});
	} catch (err) {
		if (signal?.aborted) throw err;
		throw new LogLoadError(0, err instanceof Error ? err.message : String(err));
	}
	if (!res.ok) throw new LogLoadError(res.status, `The play log could not be loaded (HTTP ${res.status}).`);
	const parsed = v.safeParse(LogPageSchema, await res.json().catch(() => undefined));
	if (!parsed.success) throw new LogLoadError(res.status, 'The server answered the play log with an unexpected shape.');
	return parsed.output;
}
