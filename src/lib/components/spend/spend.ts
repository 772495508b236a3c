/** Reads GET /api/v1/sessions/{id}/spend, checked against its schema. */
import * as v from 'valibot';
import { ApiErrorBodySchema, SpendSchema, type SpendDto } from '../../types/api';

export async function fetchSpend(sessionId: string, fetcher: typeof fetch = fetch): Promise<SpendDto> {
	const res = await fetcher(`/api/v1/sessions/${encodeURIComponent(sessionId)}/spend`, { headers: { accept: 'application/json' } });
	const data: unknown = await res.json().catch(() => undefined);
	if (!res.ok) {
		const body = v.safeParse(ApiErrorBodySchema, data);
		throw new Error(body.success ? body.output.message : `HTTP ${res.status}`);
	}
	const parsed = v.safeParse(SpendSchema, data);
	if (!parsed.success) throw new Error('The server answered with an unexpected shape.');
	return parsed.output;
}
