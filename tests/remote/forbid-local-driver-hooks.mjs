const WATCHED = ['/src/lib/server/db/', '/node_modules/@libsql/'];
/** @type {(specifier: string, url: string) => boolean} */
const FORBIDDEN = (specifier, url) =>
	specifier === 'fs' ||
	specifier.startsWith('node:fs') ||
	specifier === 'fs/promises' ||
	url.includes('/node_modules/libsql/') ||
	url.includes('/src/lib/server/db/file-client');

/** @type {import('node:module').ResolveHook} */
export async function resolve(specifier, context, next) {
	const resolved = await next(specifier, context);
	const parent = context.parentURL ?? '';
	if (WATCHED.some((w) => parent.includes(w)) && FORBIDDEN(specifier, resolved.url)) {
		throw new Error(`forbidden on the remote path: ${specifier} imported by ${parent}`);
	}
	return resolved;
}
