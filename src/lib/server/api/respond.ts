/** JSON responses of the API: never cached, since every answer is one user's private data. */
import type { ApiErrorBody } from '../../types/api';

const NO_STORE = { 'cache-control': 'no-store' } as const;

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
	return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...NO_STORE, ...headers } });
}

export function errorResponse(status: number, body: ApiErrorBody, headers: Record<string, string> = {}): Response {
	return jsonResponse(body, status, headers);
}
