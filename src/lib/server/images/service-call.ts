/**
 * Plain HTTP calls to a local image generator (ComfyUI, AUTOMATIC1111), with the same contract as the OpenAI
 * provider's SDK calls: one deadline for the whole call (queue, drawing and download), the caller's abort thrown as
 * it is, and every other failure an ImageProviderError that says whether another attempt could help and how long the
 * server asked us to wait. Bodies are read with a bound, so a server that answers too much can't fill the memory.
 */
import * as v from 'valibot';
import { isRetryableStatus, retryAfterMs } from '../retry';
import { ImageProviderError } from './errors';

/** An error body is read this far for its message. */
const MAX_ERROR_BODY_BYTES = 16 * 1024;
/** A server's message is cut to this in our errors and logs. */
const MAX_DETAIL_CHARS = 300;

function shortDetail(text: string): string {
	const flat = text.replace(/\s+/g, ' ').trim();
	return flat.length > MAX_DETAIL_CHARS ? `${flat.slice(0, MAX_DETAIL_CHARS)}…` : flat;
}

/**
 * Runs `call` under the deadline. `what` starts the error messages: `image request to http://…/prompt`.
 */
export async function withDeadline<T>(
	what: string,
	signal: AbortSignal,
	timeoutMs: number,
	call: (signal: AbortSignal) => Promise<T>
): Promise<T> {
	const timeout = AbortSignal.timeout(timeoutMs);
	try {
		return await call(AbortSignal.any([signal, timeout]));
	} catch (err) {
		if (signal.aborted) throw signal.reason;
		if (timeout.aborted) throw new ImageProviderError(`${what} timed out after ${timeoutMs} ms`, true);
		if (err instanceof ImageProviderError) throw err;
		// A refused connection or a socket closed before the answer: the server may be starting or busy.
		const cause: unknown = err instanceof Error ? err.cause : undefined;
		const detail = err instanceof Error ? `${err.message}${cause instanceof Error ? ` (${cause.message})` : ''}` : String(err);
		throw new ImageProviderError(`${what} failed: ${shortDetail(detail)}`, true);
	}
}

/** The words a server put in its error body: ComfyUI's `error.message`, FastAPI's `detail`, A1111's `errors`. */
function messageOf(text: string): string {
	try {
		const body: unknown = JSON.parse(text);
		if (typeof body === 'object' && body !== null) {
			const parts: string[] = [];
			const pick = (value: unknown) => {
				if (typeof value === 'string' && value.trim() !== '') parts.push(value);
				else if (typeof value === 'object' && value !== null && 'message' in value) pick(value.message);
				else if (Array.isArray(value))
					for (const item of value as unknown[]) pick(typeof item === 'object' && item !== null && 'msg' in item ? item.msg : item);
			};
			if ('error' in body) pick(body.error);
			if ('detail' in body) pick(body.detail);
			if ('errors' in body) pick(body.errors);
			if (parts.length > 0) return shortDetail(parts.join(': '));
		}
	} catch {
		// Not JSON: the text itself (an HTML error page, a proxy's message) is the best there is.
	}
	return shortDetail(text);
}

/** Reads at most `maxBytes` of the body; more is refused (not retried: the server will answer the same). */
export async function readBounded(response: Response, maxBytes: number, what: string): Promise<Uint8Array<ArrayBuffer>> {
	const declared = Number(response.headers.get('content-length'));
	if (Number.isFinite(declared) && declared > maxBytes) {
		await response.body?.cancel();
		throw new ImageProviderError(`${what} answered with more than ${maxBytes} bytes`, false);
	}
	const chunks: Uint8Array[] = [];
	let total = 0;
	const reader = response.body?.getReader();
	for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
		total += read.value.byteLength;
		if (total > maxBytes) {
			await reader?.cancel();
			throw new ImageProviderError(`${what} answered with more than ${maxBytes} bytes`, false);
		}
		chunks.push(read.value);
	}
	const out = new Uint8Array(total);
	let at = 0;
	for (const chunk of chunks) {
		out.set(chunk, at);
		at += chunk.byteLength;
	}
	return out;
}

/** Sends the request; a status other than 2xx becomes an ImageProviderError with the server's message. */
export async function send(url: string, init: RequestInit, what: string): Promise<Response> {
	const response = await fetch(url, { ...init, redirect: 'error' });
	if (response.ok) return response;
	let message = '';
	try {
		message = messageOf(new TextDecoder().decode(await readBounded(response, MAX_ERROR_BODY_BYTES, what)));
	} catch {
		// An error body too long to read says nothing more than its status.
	}
	throw new ImageProviderError(
		`${what} answered ${response.status}${message ? `: ${message}` : ''}`,
		isRetryableStatus(response.status),
		response.status,
		retryAfterMs(response.headers)
	);
}

/** The JSON body, checked against `schema`; anything else is the server not speaking its wire format. */
export async function readJson<S extends v.GenericSchema>(
	response: Response,
	schema: S,
	maxBytes: number,
	what: string
): Promise<v.InferOutput<S>> {
	const text = new TextDecoder().decode(await readBounded(response, maxBytes, what));
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		throw new ImageProviderError(`${what} sent a response that is not JSON`, false);
	}
	const parsed = v.safeParse(schema, json);
	if (!parsed.success) {
		const issue = parsed.issues[0];
		const where = issue.path?.map((p) => String(p.key)).join('.') ?? '';
		throw new ImageProviderError(`${what} sent an unexpected answer: ${where ? `${where}: ` : ''}${issue.message}`, false);
	}
	return parsed.output;
}
