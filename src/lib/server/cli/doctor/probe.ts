/** Bounded probes: every check of `kantera doctor` answers within its time limit, reachable or not. */

class ProbeTimeout extends Error {
	constructor(ms: number) {
		super(`no answer within ${ms} ms`);
		this.name = 'ProbeTimeout';
	}
}

/** `work` or a ProbeTimeout after `ms`, whichever comes first (the timer never keeps the process alive). */
export async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new ProbeTimeout(ms)), ms);
		// Deno's timers are numbers, with no unref().
		if (typeof timer === 'object') timer.unref();
	});
	try {
		return await Promise.race([work, timeout]);
	} finally {
		clearTimeout(timer);
	}
}

/** Why a network call failed, in words: undici hides the socket error in `cause`. */
export function reason(err: unknown): string {
	if (!(err instanceof Error)) return String(err);
	const cause =
		err.cause instanceof Error ? `: ${'code' in err.cause && typeof err.cause.code === 'string' ? err.cause.code : err.cause.message}` : '';
	return `${err.message}${cause}`;
}

/** A URL fit for a report: no user info, no token in the query. */
export function redactUrl(url: string): string {
	if (url.startsWith('file:')) return url;
	try {
		const u = new URL(url);
		u.username = '';
		u.password = '';
		if (u.searchParams.has('authToken')) u.searchParams.set('authToken', '***');
		return u.toString();
	} catch {
		return url.replace(/\/\/[^@/]*@/, '//');
	}
}

export interface HttpProbe {
	ok: boolean;
	status: number | undefined;
	ms: number;
	detail: string;
}

/** GETs `url` with `headers`; reports the status, or why there was none, within `timeoutMs`. */
export async function probeHttp(url: string, headers: Record<string, string>, timeoutMs: number): Promise<HttpProbe> {
	const start = Date.now();
	try {
		const res = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
		await res.body?.cancel();
		return { ok: res.ok, status: res.status, ms: Date.now() - start, detail: `HTTP ${res.status}` };
	} catch (err) {
		const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
		return { ok: false, status: undefined, ms: Date.now() - start, detail: timedOut ? `no answer within ${timeoutMs} ms` : reason(err) };
	}
}
