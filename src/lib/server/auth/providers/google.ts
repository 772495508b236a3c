/**
 * Google (OpenID Connect) through arctic's OAuth 2.0 client: PKCE (S256), state, and a nonce that must come
 * back in the ID token. The ID token arrives straight from Google's token endpoint over TLS, so its claims are
 * checked (issuer, audience, expiry, nonce) without fetching keys (OpenID Connect Core 3.1.3.7).
 */
import * as v from 'valibot';
import { CodeChallengeMethod, decodeIdToken, OAuth2Client } from 'arctic';
import type { OAuthClientConfig } from '../../config';
import { SignInFlowError } from './errors';
import { discover } from './discovery';
import type { FlowSecrets, ProviderProfile, SignInClient } from './types';

const GOOGLE_ENDPOINTS = Object.freeze({
	issuer: 'https://accounts.google.com',
	authorization: 'https://accounts.google.com/o/oauth2/v2/auth',
	token: 'https://oauth2.googleapis.com/token'
});
const SCOPES = ['openid', 'profile', 'email'];

export interface Endpoints {
	issuer: string;
	authorization: string;
	token: string;
}

const IdTokenClaims = v.looseObject({
	iss: v.string(),
	aud: v.union([v.string(), v.array(v.string())]),
	sub: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
	exp: v.number(),
	nonce: v.optional(v.string()),
	email: v.optional(v.string()),
	email_verified: v.optional(v.boolean()),
	name: v.optional(v.string()),
	given_name: v.optional(v.string()),
	preferred_username: v.optional(v.string())
});

/** Checks the ID token's claims against this client and attempt; returns them. */
export function checkIdToken(
	idToken: string,
	expected: { issuer: string; clientId: string; nonce: string },
	now = Date.now()
): v.InferOutput<typeof IdTokenClaims> {
	let decoded: unknown;
	try {
		decoded = decodeIdToken(idToken);
	} catch (err) {
		throw new SignInFlowError('token', 'The ID token could not be decoded.', { cause: err });
	}
	const parsed = v.safeParse(IdTokenClaims, decoded);
	if (!parsed.success) throw new SignInFlowError('token', `The ID token lacks a claim: ${parsed.issues[0].message}`);
	const claims = parsed.output;
	const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
	if (claims.iss !== expected.issuer) throw new SignInFlowError('token', 'The ID token comes from another issuer.');
	if (!audiences.includes(expected.clientId)) throw new SignInFlowError('token', 'The ID token is for another client.');
	if (claims.exp * 1000 <= now) throw new SignInFlowError('token', 'The ID token has expired.');
	if (claims.nonce !== expected.nonce) throw new SignInFlowError('token', 'The ID token belongs to another sign-in attempt (nonce).');
	return claims;
}

export function createGoogleClient(cfg: OAuthClientConfig & { issuer: string | undefined }): SignInClient {
	const endpoints = async (): Promise<Endpoints> => {
		if (cfg.issuer === undefined) return GOOGLE_ENDPOINTS;
		const meta = await discover(cfg.issuer, cfg.clientId, cfg.clientSecret);
		return meta.endpoints;
	};
	const client = (redirectUri: string) => new OAuth2Client(cfg.clientId, cfg.clientSecret ?? null, redirectUri);
	return {
		id: 'google',
		label: 'Google',
		async authorizationUrl(flow: FlowSecrets, redirectUri: string) {
			const url = client(redirectUri).createAuthorizationURLWithPKCE(
				(await endpoints()).authorization,
				flow.state,
				CodeChallengeMethod.S256,
				flow.codeVerifier,
				SCOPES
			);
			url.searchParams.set('nonce', flow.nonce);
			return url;
		},
		async finish(callback: URL, flow: FlowSecrets, redirectUri: string): Promise<ProviderProfile> {
			const code = callback.searchParams.get('code');
			if (!code) throw new SignInFlowError('provider', 'The provider sent no authorization code.');
			const ep = await endpoints();
			let idToken: string;
			try {
				idToken = (await client(redirectUri).validateAuthorizationCode(ep.token, code, flow.codeVerifier)).idToken();
			} catch (err) {
				throw new SignInFlowError('provider', `The token request failed: ${err instanceof Error ? err.message : String(err)}`, {
					cause: err
				});
			}
			const claims = checkIdToken(idToken, { issuer: ep.issuer, clientId: cfg.clientId, nonce: flow.nonce });
			return {
				provider: 'google',
				subject: claims.sub,
				label: claims.email ?? claims.name ?? claims.sub,
				nameHints: [claims.preferred_username, claims.email?.split('@')[0], claims.name, claims.given_name].filter((x): x is string =>
					Boolean(x)
				)
			};
		}
	};
}
