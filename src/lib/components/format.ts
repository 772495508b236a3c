/**
 * Dates shown on pages. One fixed format and time zone, so the server-rendered HTML and the hydrated
 * page agree (the server's locale and zone are not the reader's).
 */
export function formatDateTime(iso: string): string {
	return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
