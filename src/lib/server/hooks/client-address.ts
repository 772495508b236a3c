/** The address a request came from, for throttling. */
import type { RequestEvent } from '@sveltejs/kit';

/**
 * adapter-node's answer: the ADDRESS_HEADER (with XFF_DEPTH) when the operator set one, else the
 * socket's address. It throws when the configured header is missing from a request; then the address
 * is unknown (null) and said so in the log, and throttling falls back to the account alone.
 */
export function clientAddress(event: Pick<RequestEvent, 'getClientAddress'>): string | null {
	try {
		return event.getClientAddress() || null;
	} catch (err) {
		console.warn(
			`[kantera] the client's address is unknown (${err instanceof Error ? err.message : 'no reason given'}); check ADDRESS_HEADER/XFF_DEPTH`
		);
		return null;
	}
}
