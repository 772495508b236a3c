// @ts-check
// Start-up decisions of `npm start` (bin/server.js under Node, bin/server-bun.js, bin/server-deno.js),
// kept free of side effects so they can be tested: where to listen, which environment the adapter's
// handler must see, and which requests never reach SvelteKit; and the first steps all three servers
// take (`startOrExit`, `noteOrigin`), written once.
import * as v from 'valibot';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TARGETS } from './targets.js';

/** The app's own default for KANTERA_MAX_BODY_BYTES (src/lib/server/config); a test keeps them equal. */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

/**
 * With no ORIGIN and no PROTOCOL_HEADER, this server writes the scheme of the connection it actually
 * accepted into this request header and points adapter-node's PROTOCOL_HEADER at it. Whatever a
 * client sends under the same name is overwritten, so the scheme can never come from the client.
 */
export const SOCKET_PROTOCOL_HEADER = 'x-kantera-socket-protocol';

/** Adapter-node's request-origin variables: any of them set means the operator describes the origin. */
const ORIGIN_VARIABLES = ['ORIGIN', 'PROTOCOL_HEADER'];

const WholeNumber = v.pipe(v.string(), v.trim(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number));
const StartEnv = v.object({
	KANTERA_MAX_BODY_BYTES: v.optional(v.pipe(WholeNumber, v.minValue(1, 'must be greater than 0'))),
	BODY_SIZE_LIMIT: v.optional(v.string()),
	PORT: v.optional(v.pipe(WholeNumber, v.maxValue(65_535, 'must be a port number (0–65535)'))),
	HOST: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'))),
	SOCKET_PATH: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
	SHUTDOWN_TIMEOUT: v.optional(WholeNumber),
	KEEP_ALIVE_TIMEOUT: v.optional(WholeNumber),
	HEADERS_TIMEOUT: v.optional(WholeNumber),
	// Bun's idleTimeout, in seconds; Bun takes at most 255.
	IDLE_TIMEOUT: v.optional(v.pipe(WholeNumber, v.maxValue(255, 'must be at most 255 (seconds)')))
});

export class StartError extends Error {
	/** @param {string} message */
	constructor(message) {
		super(message);
		this.name = 'StartError';
	}
}

/**
 * adapter-node's reading of BODY_SIZE_LIMIT: bytes, or a number with a K, M or G suffix, or Infinity.
 * @param {string} value
 * @returns {number}
 */
export function parseByteSize(value) {
	const units = /** @type {const} */ ({ K: 1024, M: 1024 * 1024, G: 1024 * 1024 * 1024 });
	const suffix = value.trim().slice(-1).toUpperCase();
	const multiplier = suffix === 'K' || suffix === 'M' || suffix === 'G' ? units[suffix] : 1;
	const digits = multiplier === 1 ? value.trim() : value.trim().slice(0, -1);
	return digits === '' ? Number.NaN : Number(digits) * multiplier;
}

/**
 * @typedef {object} StartSettings
 * @property {Record<string, string>} adapterEnv variables to set before adapter-node's handler is loaded (it reads them once, at load)
 * @property {string | undefined} socketProtocolHeader the header this server fills from the socket, when no origin is configured
 * @property {{ path: string } | { host: string, port: number }} listen
 * @property {number} shutdownTimeoutS
 * @property {number | undefined} keepAliveTimeoutS
 * @property {number | undefined} headersTimeoutS
 * @property {number} idleTimeoutS Bun: seconds a connection may stay silent between requests (0: no limit)
 * @property {number | undefined} bodySizeLimit BODY_SIZE_LIMIT in bytes when set (never below maxBodyBytes)
 * @property {number} maxBodyBytes
 */

/**
 * Decides how to start from the environment, or throws StartError naming every bad variable.
 * @param {Record<string, string | undefined>} env
 * @returns {StartSettings}
 */
export function startSettings(env) {
	// Empty means unset, as for the app's own configuration.
	const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
	const parsed = v.safeParse(StartEnv, cleaned);
	if (!parsed.success) {
		const lines = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? '(environment)'}: ${issue.message}`);
		throw new StartError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
	}
	const e = parsed.output;
	const maxBodyBytes = e.KANTERA_MAX_BODY_BYTES ?? DEFAULT_MAX_BODY_BYTES;
	/** @type {Record<string, string>} */
	const adapterEnv = {};
	/** @type {number | undefined} */
	let bodySizeLimit;
	if (e.BODY_SIZE_LIMIT === undefined) {
		// adapter-node's own cap (512K by default) would otherwise cut bodies the app accepts.
		adapterEnv.BODY_SIZE_LIMIT = String(maxBodyBytes);
	} else {
		const limit = parseByteSize(e.BODY_SIZE_LIMIT);
		if (Number.isNaN(limit))
			throw new StartError(
				`Invalid configuration:\n  BODY_SIZE_LIMIT: must be a number of bytes, optionally with K, M or G (got "${e.BODY_SIZE_LIMIT}")`
			);
		if (limit < maxBodyBytes) {
			throw new StartError(
				`Invalid configuration:\n  BODY_SIZE_LIMIT: ${e.BODY_SIZE_LIMIT} (${limit} bytes) is below KANTERA_MAX_BODY_BYTES (${maxBodyBytes}); ` +
					'requests the app accepts would be cut off. Leave BODY_SIZE_LIMIT unset (npm start sets it from KANTERA_MAX_BODY_BYTES) or raise it.'
			);
		}
		bodySizeLimit = limit;
	}
	let socketProtocolHeader;
	if (ORIGIN_VARIABLES.every((name) => cleaned[name] === undefined)) {
		socketProtocolHeader = SOCKET_PROTOCOL_HEADER;
		adapterEnv.PROTOCOL_HEADER = SOCKET_PROTOCOL_HEADER;
	}
	return {
		adapterEnv,
		socketProtocolHeader,
		listen: e.SOCKET_PATH !== undefined ? { path: e.SOCKET_PATH } : { host: e.HOST ?? '0.0.0.0', port: e.PORT ?? 3000 },
		shutdownTimeoutS: e.SHUTDOWN_TIMEOUT ?? 30,
		keepAliveTimeoutS: e.KEEP_ALIVE_TIMEOUT,
		headersTimeoutS: e.HEADERS_TIMEOUT,
		// Bun's own default; event streams are exempt (bin/server-bun.js).
		idleTimeoutS: e.IDLE_TIMEOUT ?? 10,
		bodySizeLimit,
		maxBodyBytes
	};
}

/** The content types a browser form can send; SvelteKit's CSRF check looks at exactly these. */
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain', 'application/x-sveltekit-formdata']);
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A form-typed body sent to the JSON API. The API takes only JSON, so such a request is refused
 * whatever its origin; answering it here (415, as JSON) spares it SvelteKit's CSRF check, whose
 * answer is plain text. Refusing it is never weaker than that check: nothing runs.
 * @param {{ method?: string, url?: string, headers: { 'content-type'?: string } }} req
 */
export function isFormPostToApi(req) {
	if (!UNSAFE_METHODS.has(req.method ?? '')) return false;
	if (!isApiPath(req.url ?? '/')) return false;
	const type = (req.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
	return FORM_TYPES.has(type);
}

/**
 * Whether a request target is under /api/ as SvelteKit will route it (percent-decoded, so `/%61pi/`
 * counts too).
 * @param {string} target
 */
export function isApiPath(target) {
	let path;
	try {
		// Built the way adapter-node builds the request URL (base + raw target).
		path = decodeURIComponent(new URL(`http://localhost${target}`).pathname);
	} catch {
		return false;
	}
	return path.startsWith('/api/');
}

/** The answer to `isFormPostToApi` requests: the API's own 415 (src/lib/server/api/body.ts). */
export const API_FORM_POST_RESPONSE = {
	status: 415,
	headers: {
		'content-type': 'application/json',
		'cache-control': 'no-store',
		'x-content-type-options': 'nosniff',
		'content-security-policy': "default-src 'none'; frame-ancestors 'none'"
	},
	body: JSON.stringify({ message: 'Send the body as JSON with "content-type: application/json".', code: 'UNSUPPORTED_MEDIA_TYPE' })
};

/**
 * What every server does first: decide its settings (a bad variable ends the start with its message)
 * and make sure its target has been built; either failure exits with code 1 before anything listens.
 * @template T
 * @param {import('./targets.js').TargetName} target
 * @param {() => T} decide start-up decisions that throw StartError naming what is wrong
 * @returns {T}
 */
export function startOrExit(target, decide) {
	/** @type {T} */
	let settings;
	try {
		settings = decide();
	} catch (err) {
		if (!(err instanceof StartError)) throw err;
		console.error(err.message);
		process.exit(1);
	}
	const entry = new URL(`../${TARGETS[target].entry}`, import.meta.url);
	if (!existsSync(fileURLToPath(entry))) {
		const build = target === 'node' ? 'npm run build' : `KANTERA_ADAPTER=${target} npm run build`;
		console.error(`There is no ${target} build to start: run \`${build}\` first.`);
		process.exit(1);
	}
	return settings;
}

/**
 * Tells the operator, once listening, that pages are served at the http:// address the browser uses
 * because no origin is configured (what to set behind an https proxy).
 * @param {Pick<StartSettings, 'socketProtocolHeader'>} settings
 */
export function noteOrigin(settings) {
	if (!settings.socketProtocolHeader) return;
	console.log(
		'ORIGIN is not set: pages are served at the http:// address the browser uses. Behind an https proxy, set ORIGIN (or PROTOCOL_HEADER and HOST_HEADER).'
	);
}
