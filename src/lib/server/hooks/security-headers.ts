/**
 * Security headers on every response of the app. Pages carry SvelteKit's Content-Security-Policy
 * (svelte.config.js: nonces, frame-ancestors 'none'); anything else without a policy of its own gets
 * one that loads nothing and may not be framed. HSTS is sent only when the site's origin is https —
 * on http it would be ignored at best, and a misconfigured one locks browsers out.
 */
import type { Handle } from '@sveltejs/kit';

/** A year, the usual HSTS lifetime; subdomains are left to the operator (they may not be Kantera's). */
const HSTS_MAX_AGE_S = 365 * 24 * 60 * 60;

/** Powerful features no page of Kantera uses. */
const PERMISSIONS_POLICY = 'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()';

const NON_PAGE_POLICY = "default-src 'none'; frame-ancestors 'none'";
/** HTML that SvelteKit rendered without its policy (its static error page): at least never framed. */
const HTML_FALLBACK_POLICY = "frame-ancestors 'none'";

function securityHeaders(response: Response, https: boolean): Record<string, string> {
	const headers: Record<string, string> = {
		'x-content-type-options': 'nosniff',
		'referrer-policy': 'same-origin',
		'permissions-policy': PERMISSIONS_POLICY,
		// For browsers that predate frame-ancestors.
		'x-frame-options': 'DENY'
	};
	if (!response.headers.has('content-security-policy')) {
		headers['content-security-policy'] = (response.headers.get('content-type') ?? '').startsWith('text/html')
			? HTML_FALLBACK_POLICY
			: NON_PAGE_POLICY;
	}
	if (https) headers['strict-transport-security'] = `max-age=${HSTS_MAX_AGE_S}`;
	return headers;
}

/** Sets `headers` on the response, copying it first when its headers are immutable (fetched or redirect responses). */
function withHeaders(response: Response, headers: Record<string, string>): Response {
	try {
		for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
		return response;
	} catch {
		const copy = new Response(response.body, response);
		for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
		return copy;
	}
}

export const handleSecurityHeaders: Handle = async ({ event, resolve }) => {
	const response = await resolve(event);
	return withHeaders(response, securityHeaders(response, event.url.protocol === 'https:'));
};
