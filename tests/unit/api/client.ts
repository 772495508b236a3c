/**
 * An in-process HTTP client for the API routes: requests are real `Request` objects handed to the
 * real `+server.ts` handlers (through a small route table), with `getApp()` answering with a test app
 * wired to the mock LLM. No build and no server process; the hooks are skipped, so `locals.user` is
 * set here (the cookie/Bearer resolution has its own tests).
 */
import { setAppForTests, createApp, type App } from '../../../src/lib/server/app';
import { parseConfig } from '../../../src/lib/server/config';
import { createUser, setTier, type AuthUser } from '../../../src/lib/server/auth';
import type { Tier } from '../../../src/lib/types/account';
import type { ApiEvent } from '../../../src/lib/server/api';
import { mockLlmApp, type MockLlmAppOptions, type Vendor } from '../../helpers/turns';
import { tempDir } from '../../helpers/env';
import { databaseEnv } from '../../helpers/databases';
import type { MockLlm } from '../../mock-llm';
import * as statusRoute from '../../../src/routes/api/v1/status/+server';
import * as sessionsRoute from '../../../src/routes/api/v1/sessions/+server';
import * as sessionRoute from '../../../src/routes/api/v1/sessions/[id]/+server';
import * as turnsRoute from '../../../src/routes/api/v1/sessions/[id]/turns/+server';
import * as turnRoute from '../../../src/routes/api/v1/sessions/[id]/turns/[turnId]/+server';
import * as cancelRoute from '../../../src/routes/api/v1/sessions/[id]/turns/[turnId]/cancel/+server';
import * as messagesRoute from '../../../src/routes/api/v1/sessions/[id]/messages/+server';
import * as stateRoute from '../../../src/routes/api/v1/sessions/[id]/state/+server';
import * as journalRoute from '../../../src/routes/api/v1/sessions/[id]/journal/+server';
import * as documentsRoute from '../../../src/routes/api/v1/sessions/[id]/documents/+server';
import * as documentRoute from '../../../src/routes/api/v1/sessions/[id]/documents/[docId]/+server';
import * as eventsRoute from '../../../src/routes/api/v1/sessions/[id]/events/+server';
import * as worldsRoute from '../../../src/routes/api/v1/worlds/+server';
import * as regenerateRoute from '../../../src/routes/api/v1/sessions/[id]/images/regenerate/+server';
import * as imagesRoute from '../../../src/routes/api/v1/sessions/[id]/images/+server';
import * as imageRoute from '../../../src/routes/api/v1/sessions/[id]/images/[key]/+server';
import * as backlogRoute from '../../../src/routes/api/v1/sessions/[id]/backlog/+server';
import * as journalRecentRoute from '../../../src/routes/api/v1/sessions/[id]/journal/recent/+server';
import * as presetsRoute from '../../../src/routes/api/v1/presets/+server';
import * as presetRoute from '../../../src/routes/api/v1/presets/[id]/+server';
import * as presetFavoriteRoute from '../../../src/routes/api/v1/presets/[id]/favorite/+server';
import * as presetDraftRoute from '../../../src/routes/api/v1/presets/[id]/draft/+server';
import * as presetReportRoute from '../../../src/routes/api/v1/presets/[id]/report/+server';
import * as presetImportRoute from '../../../src/routes/api/v1/presets/import/+server';
import * as presetLorebookRoute from '../../../src/routes/api/v1/presets/[id]/lorebook/+server';
import * as presetExportRoute from '../../../src/routes/api/v1/presets/[id]/export/+server';
import * as presetArtRoute from '../../../src/routes/api/v1/presets/[id]/art/+server';
import * as presetArtNpcRoute from '../../../src/routes/api/v1/presets/[id]/art/npcs/[npc]/[expression]/+server';
import * as presetArtPlaceRoute from '../../../src/routes/api/v1/presets/[id]/art/places/[place]/+server';
import * as presetArtCoverRoute from '../../../src/routes/api/v1/presets/[id]/art/cover/+server';
import * as presetAudioRoute from '../../../src/routes/api/v1/presets/[id]/audio/+server';
import * as presetAudioFileRoute from '../../../src/routes/api/v1/presets/[id]/audio/[kind]/[name]/+server';
import * as galleryRoute from '../../../src/routes/api/v1/gallery/+server';
import * as spendRoute from '../../../src/routes/api/v1/sessions/[id]/spend/+server';
import * as undoRoute from '../../../src/routes/api/v1/sessions/[id]/turns/[turnId]/undo/+server';
import * as rerollRoute from '../../../src/routes/api/v1/sessions/[id]/turns/[turnId]/reroll/+server';
import * as alternativesRoute from '../../../src/routes/api/v1/sessions/[id]/turns/[turnId]/alternatives/+server';
import * as chooseRoute from '../../../src/routes/api/v1/sessions/[id]/turns/[turnId]/alternatives/[altId]/choose/+server';
import * as savesRoute from '../../../src/routes/api/v1/sessions/[id]/saves/+server';
import * as saveRoute from '../../../src/routes/api/v1/sessions/[id]/saves/[saveId]/+server';
import * as loadRoute from '../../../src/routes/api/v1/sessions/[id]/saves/[saveId]/load/+server';
import * as invitationsRoute from '../../../src/routes/api/v1/sessions/[id]/invitations/+server';
import * as invitationRoute from '../../../src/routes/api/v1/sessions/[id]/invitations/[invitationId]/+server';
import * as acceptRoute from '../../../src/routes/api/v1/invitations/[token]/accept/+server';
import * as membersRoute from '../../../src/routes/api/v1/sessions/[id]/members/+server';
import * as memberRoute from '../../../src/routes/api/v1/sessions/[id]/members/[userId]/+server';
import * as passRoute from '../../../src/routes/api/v1/sessions/[id]/pass/+server';
import * as typingRoute from '../../../src/routes/api/v1/sessions/[id]/typing/+server';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
type Handler<P extends Partial<Record<string, string>>> = (event: ApiEvent<P>) => Promise<Response>;
type Handlers<P extends Partial<Record<string, string>>> = Partial<Record<Method, Handler<P>>>;

interface Route {
	match(method: Method, path: string): ((event: Omit<ApiEvent<never>, 'params'>) => Promise<Response>) | undefined;
}

/** One route: a path pattern, its module and how its capture groups become SvelteKit params. */
function route<P extends Partial<Record<string, string>>>(pattern: RegExp, module: Handlers<P>, params: (groups: string[]) => P): Route {
	return {
		match(method, path) {
			const m = pattern.exec(path);
			const handler = module[method];
			if (!m || !handler) return undefined;
			return (event) => handler({ ...event, params: params(m.slice(1).map(decodeURIComponent)) });
		}
	};
}

const SEG = '([^/]+)';
const ROUTES: Route[] = [
	route(/^\/api\/v1\/status$/, statusRoute, () => ({})),
	route(/^\/api\/v1\/sessions$/, sessionsRoute, () => ({})),
	route(/^\/api\/v1\/worlds$/, worldsRoute, () => ({})),
	route(new RegExp(`^/api/v1/sessions/${SEG}$`), sessionRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/turns$`), turnsRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/turns/${SEG}$`), turnRoute, ([id = '', turnId = '']) => ({ id, turnId })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/turns/${SEG}/cancel$`), cancelRoute, ([id = '', turnId = '']) => ({ id, turnId })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/turns/${SEG}/undo$`), undoRoute, ([id = '', turnId = '']) => ({ id, turnId })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/turns/${SEG}/reroll$`), rerollRoute, ([id = '', turnId = '']) => ({ id, turnId })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/turns/${SEG}/alternatives$`), alternativesRoute, ([id = '', turnId = '']) => ({ id, turnId })),
	route(
		new RegExp(`^/api/v1/sessions/${SEG}/turns/${SEG}/alternatives/${SEG}/choose$`),
		chooseRoute,
		([id = '', turnId = '', altId = '']) => ({
			id,
			turnId,
			altId
		})
	),
	route(new RegExp(`^/api/v1/sessions/${SEG}/saves$`), savesRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/saves/${SEG}$`), saveRoute, ([id = '', saveId = '']) => ({ id, saveId })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/saves/${SEG}/load$`), loadRoute, ([id = '', saveId = '']) => ({ id, saveId })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/invitations$`), invitationsRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/invitations/${SEG}$`), invitationRoute, ([id = '', invitationId = '']) => ({
		id,
		invitationId
	})),
	route(new RegExp(`^/api/v1/invitations/${SEG}/accept$`), acceptRoute, ([token = '']) => ({ token })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/members$`), membersRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/members/${SEG}$`), memberRoute, ([id = '', userId = '']) => ({ id, userId })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/pass$`), passRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/typing$`), typingRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/messages$`), messagesRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/state$`), stateRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/journal$`), journalRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/documents$`), documentsRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/documents/${SEG}$`), documentRoute, ([id = '', docId = '']) => ({ id, docId })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/events$`), eventsRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/images/regenerate$`), regenerateRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/spend$`), spendRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/images$`), imagesRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/images/${SEG}$`), imageRoute, ([id = '', key = '']) => ({ id, key })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/backlog$`), backlogRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/sessions/${SEG}/journal/recent$`), journalRecentRoute, ([id = '']) => ({ id })),
	route(/^\/api\/v1\/presets$/, presetsRoute, () => ({})),
	route(/^\/api\/v1\/presets\/import$/, presetImportRoute, () => ({})),
	route(/^\/api\/v1\/gallery$/, galleryRoute, () => ({})),
	route(new RegExp(`^/api/v1/presets/${SEG}$`), presetRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/presets/${SEG}/favorite$`), presetFavoriteRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/presets/${SEG}/draft$`), presetDraftRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/presets/${SEG}/report$`), presetReportRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/presets/${SEG}/lorebook$`), presetLorebookRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/presets/${SEG}/export$`), presetExportRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/presets/${SEG}/art$`), presetArtRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/presets/${SEG}/art/npcs/${SEG}/${SEG}$`), presetArtNpcRoute, ([id = '', npc = '', expression = '']) => ({
		id,
		npc,
		expression
	})),
	route(new RegExp(`^/api/v1/presets/${SEG}/art/places/${SEG}$`), presetArtPlaceRoute, ([id = '', place = '']) => ({ id, place })),
	route(new RegExp(`^/api/v1/presets/${SEG}/art/cover$`), presetArtCoverRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/presets/${SEG}/audio$`), presetAudioRoute, ([id = '']) => ({ id })),
	route(new RegExp(`^/api/v1/presets/${SEG}/audio/${SEG}/${SEG}$`), presetAudioFileRoute, ([id = '', kind = '', name = '']) => ({
		id,
		kind,
		name
	}))
];

const ORIGIN = 'http://kantera.test';

export interface RequestOptions {
	/** An object is sent as JSON; a string is sent as it is (malformed on purpose); bytes and forms as they are. */
	body?: unknown;
	headers?: Record<string, string>;
	signal?: AbortSignal;
}

export interface Caller {
	request(method: Method, path: string, options?: RequestOptions): Promise<Response>;
	get(path: string, options?: RequestOptions): Promise<Response>;
	post(path: string, body?: unknown, options?: RequestOptions): Promise<Response>;
	patch(path: string, body?: unknown, options?: RequestOptions): Promise<Response>;
	put(path: string, body?: unknown, options?: RequestOptions): Promise<Response>;
	delete(path: string, options?: RequestOptions): Promise<Response>;
}

/** Calls the route handlers as `user` (null: not signed in). Every response passes through `seen`. */
export function caller(user: AuthUser | null, seen: (res: Response, path: string) => void = () => undefined): Caller {
	const request = async (method: Method, path: string, options: RequestOptions = {}) => {
		const url = new URL(path, ORIGIN);
		const headers = new Headers(options.headers);
		let body: string | Uint8Array<ArrayBuffer> | FormData | undefined;
		if (options.body instanceof Uint8Array) body = new Uint8Array(options.body);
		else if (options.body instanceof FormData) body = options.body;
		else if (options.body !== undefined) {
			body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
			if (!headers.has('content-type')) headers.set('content-type', 'application/json');
		}
		const req = new Request(url, { method, headers, body, signal: options.signal });
		for (const r of ROUTES) {
			const handler = r.match(method, url.pathname);
			if (handler) {
				const res = await handler({ request: req, url, locals: { user } });
				seen(res, path);
				return res;
			}
		}
		throw new Error(`no route for ${method} ${url.pathname}`);
	};
	return {
		request,
		get: (path, options) => request('GET', path, options),
		post: (path, body, options) => request('POST', path, { ...options, body }),
		patch: (path, body, options) => request('PATCH', path, { ...options, body }),
		put: (path, body, options) => request('PUT', path, { ...options, body }),
		delete: (path, options) => request('DELETE', path, options)
	};
}

export interface ApiHarness {
	app: App;
	/** Undefined when the harness has no LLM configured. */
	mock: MockLlm | undefined;
	alice: AuthUser;
	bob: AuthUser;
	as: (user: AuthUser | null) => Caller;
	/** The text of every JSON response so far (SSE bodies are read by the tests themselves). */
	seenBodies: Promise<string>[];
	cleanup: () => Promise<void>;
}

const PASSWORD = 'correct horse battery staple';

/** A test app (mock LLM by default, or none) installed as the app of this test file, with two users. */
export async function apiHarness(
	opts: { vendor?: Vendor; env?: Record<string, string>; llm?: boolean; tier?: Tier; app?: MockLlmAppOptions } = {}
): Promise<ApiHarness> {
	let app: App;
	let mock: MockLlm | undefined;
	let cleanup: () => Promise<void>;
	if (opts.llm === false) {
		const { dir, remove } = tempDir();
		app = await createApp(parseConfig({ ...databaseEnv(dir), ...opts.env }));
		cleanup = async () => {
			await app.close();
			remove();
		};
	} else {
		const built = await mockLlmApp(opts.vendor ?? 'openai', opts.env, opts.app);
		({ app, mock, cleanup } = built);
	}
	setAppForTests(app);
	// New accounts are free; tests of plus features ask for plus.
	const made = [
		await createUser(app, { name: 'alice', password: PASSWORD }, { viaOperator: true }),
		await createUser(app, { name: 'bob', password: PASSWORD }, { viaOperator: true })
	];
	const [alice, bob] = await Promise.all(
		made.map(async (u) => (opts.tier && opts.tier !== u.tier ? ((await setTier(app, u.id, opts.tier)) ?? u) : u))
	);
	if (!alice || !bob) throw new Error('test users missing');
	const seenBodies: Promise<string>[] = [];
	const record = (res: Response) => {
		if (res.headers.get('content-type')?.startsWith('application/json')) seenBodies.push(res.clone().text());
	};
	return {
		app,
		mock,
		alice,
		bob,
		as: (user) => caller(user, record),
		seenBodies,
		async cleanup() {
			setAppForTests(undefined);
			await cleanup();
		}
	};
}

/** Polls a turn until it has finished (the runner works outside the request). */
export async function waitForTurn(api: Caller, sessionId: string, turnId: string, maxPolls = 500): Promise<unknown> {
	for (let i = 0; i < maxPolls; i++) {
		const res = await api.get(`/api/v1/sessions/${sessionId}/turns/${turnId}`);
		const body: unknown = await res.json();
		if (typeof body === 'object' && body !== null && 'status' in body && body.status !== 'accepted' && body.status !== 'running')
			return body;
		await new Promise((r) => setTimeout(r, 10));
	}
	throw new Error(`turn ${turnId} did not finish after ${maxPolls} polls`);
}
