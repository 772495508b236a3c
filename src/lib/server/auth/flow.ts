/**
 * One sign-in through a provider, from `GET /auth/{provider}` to `GET /auth/{provider}/callback`. The
 * attempt's secrets (state, PKCE verifier, nonce) wait in a short-lived httpOnly cookie scoped to /auth: the
 * callback is accepted only from the browser that started it, with the state it was given, once.
 */
import * as v from 'valibot';
import { generateCodeVerifier, generateState } from 'arctic';
import type { Cookies } from '@sveltejs/kit';
import { SignInProviderSchema, type SignInProvider } from '../../types/account';
import { SignInFlowError, type FlowSecrets, type ProviderProfile, type SignInClient } from './providers';

const FLOW_COOKIE = 'kantera_oauth';
/** Long enough to sign in at the provider, short enough that a forgotten tab's attempt dies. */
const FLOW_TTL_S = 600;
const FLOW_PATH = '/auth';

const FlowSchema = v.object({
	provider: SignInProviderSchema,
	state: v.pipe(v.string(), v.minLength(16)),
	codeVerifier: v.pipe(v.string(), v.minLength(43)),
	nonce: v.pipe(v.string(), v.minLength(16)),
	/** Where to go afterwards: a path of this site (checked again when used). */
	redirectTo: v.string(),
	/** Link to the signed-in account instead of signing in. */
	link: v.boolean()
});
type Flow = v.InferOutput<typeof FlowSchema>;

function redirectUriFor(url: URL, provider: SignInProvider): string {
	return `${url.origin}${FLOW_PATH}/${provider}/callback`;
}

function cookieOptions(url: URL) {
	return { path: FLOW_PATH, httpOnly: true, sameSite: 'lax' as const, secure: url.protocol === 'https:', maxAge: FLOW_TTL_S };
}

/** Starts an attempt: remembers its secrets in the cookie and returns the provider's authorization URL. */
export async function startFlow(
	client: SignInClient,
	ctx: { url: URL; cookies: Cookies; redirectTo: string; link: boolean }
): Promise<URL> {
	const secrets: FlowSecrets = { state: generateState(), codeVerifier: generateCodeVerifier(), nonce: generateState() };
	const flow: Flow = { provider: client.id, ...secrets, redirectTo: ctx.redirectTo, link: ctx.link };
	const target = await client.authorizationUrl(secrets, redirectUriFor(ctx.url, client.id));
	ctx.cookies.set(FLOW_COOKIE, Buffer.from(JSON.stringify(flow)).toString('base64url'), cookieOptions(ctx.url));
	return target;
}

function readFlow(cookies: Cookies): Flow | undefined {
	const raw = cookies.get(FLOW_COOKIE);
	if (!raw) return undefined;
	try {
		const parsed = v.safeParse(FlowSchema, JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')));
		return parsed.success ? parsed.output : undefined;
	} catch {
		return undefined;
	}
}

export interface FinishedFlow {
	profile: ProviderProfile;
	redirectTo: string;
	link: boolean;
}

/**
 * Ends an attempt: the cookie is spent whatever happens; the state must match it, the provider must not
 * report an error, then the adapter exchanges the code and checks the ID token (nonce included).
 */
export async function finishFlow(client: SignInClient, ctx: { url: URL; cookies: Cookies }): Promise<FinishedFlow> {
	const flow = readFlow(ctx.cookies);
	ctx.cookies.delete(FLOW_COOKIE, { path: FLOW_PATH, httpOnly: true, sameSite: 'lax', secure: ctx.url.protocol === 'https:' });
	if (!flow || flow.provider !== client.id)
		throw new SignInFlowError('state', 'No sign-in attempt is waiting for this provider in this browser (it may have expired).');
	if (ctx.url.searchParams.get('state') !== flow.state)
		throw new SignInFlowError('state', 'The state sent back does not match this attempt.');
	const error = ctx.url.searchParams.get('error');
	if (error) throw new SignInFlowError('denied', `The provider answered ${error.slice(0, 64)}.`);
	const profile = await client.finish(ctx.url, flow, redirectUriFor(ctx.url, client.id));
	return { profile, redirectTo: flow.redirectTo, link: flow.link };
}
