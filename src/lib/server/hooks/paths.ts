/** Which requests belong to the JSON API. */

const API_PREFIX = '/api/';

/**
 * Whether the request is for the JSON API, as SvelteKit routes it: routes are matched on the
 * percent-decoded path, so `/%61pi/v1/…` is an API request too.
 */
export function isApiRequest(url: URL): boolean {
	let path: string;
	try {
		path = decodeURIComponent(url.pathname);
	} catch {
		path = url.pathname;
	}
	return path.startsWith(API_PREFIX);
}
