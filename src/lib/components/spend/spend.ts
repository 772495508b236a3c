/** Reads GET /api/v1/sessions/{id}/spend, checked against its schema; a failure is an `ApiRequestError`. */
import * as v from 'valibot';
import { SpendSchema, type SpendDto } from '../../types/api';
import { apiRequestError, networkError, shapeError } from '../panels/api-errors';

export async function fetchSpend(sessionId: string, fetcher: typeof fetch = fetch): Promise<SpendDto> {
	let res: Response;
	try {
		res = await fetcher(`/api/v1/sessions/${encodeURIComponent(sessionId)}/spend`, { headers: { accept: 'application/json' } });
	} catch (err) {
		throw networkError(err);
	}
	if (!res.ok) throw await apiRequestError(res);
	const parsed = v.safeParse(SpendSchema, await res.json().catch(() => undefined));
	if (!parsed.success) throw shapeError(res.status);
	return parsed.output;
}
