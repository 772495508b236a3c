/**
 * Who may scrape `/metrics`: whoever sends the operator's token (KANTERA_METRICS_TOKEN) as a Bearer
 * token. Without a configured token the endpoint does not exist. Compared in constant time (as
 * SHA-256 digests, so the lengths match too): the answer's timing says nothing about the token.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export const METRICS_PATH = '/metrics';

export type MetricsAccess = 'granted' | 'refused' | 'absent';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export function metricsAccess(configured: string | undefined, authorization: string | null): MetricsAccess {
	if (configured === undefined) return 'absent';
	const sent = authorization === null ? undefined : BEARER.exec(authorization)?.[1];
	if (sent === undefined) return 'refused';
	return timingSafeEqual(digest(sent), digest(configured)) ? 'granted' : 'refused';
}
