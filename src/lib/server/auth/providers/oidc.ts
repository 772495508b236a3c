/**
 * Any OpenID Connect provider by issuer URL (Keycloak, Authentik, Auth0…) through openid-client: discovery,
 * PKCE (S256), state, nonce, the ID token checked (issuer, audience, expiry, nonce) and RFC 9207's `iss`
 * parameter when the provider sends it.
 */
import * as client from 'openid-client';
import type { OAuthClientConfig } from '../../config';
import { SignInFlowError } from './errors';
import { discover, type Discovered } from './discovery';
import type { FlowSecrets, ProviderProfile, SignInClient } from './types';

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

export function createOidcClient(cfg: OAuthClientConfig & { issuer: string; name: string; scopes: string[] }): SignInClient {
	// Discovered once per process; a failure is not kept, so the next attempt tries again.
	let discovered: Promise<Discovered> | undefined;
	const configuration = async () => {
		discovered ??= discover(cfg.issuer, cfg.clientId, cfg.clientSecret).catch((err: unknown) => {
			discovered = undefined;
			throw new SignInFlowError('provider', `Discovery at ${cfg.issuer} failed: ${err instanceof Error ? err.message : String(err)}`, {
				cause: err
			});
		});
		return (await discovered).config;
	};
	return {
		id: 'oidc',
		label: cfg.name,
		async authorizationUrl(flow: FlowSecrets, redirectUri: string) {
			return client.buildAuthorizationUrl(await configuration(), {
				redirect_uri: redirectUri,
				scope: cfg.scopes.join(' '),
				code_challenge: await client.calculatePKCECodeChallenge(flow.codeVerifier),
				code_challenge_method: 'S256',
				state: flow.state,
				nonce: flow.nonce
			});
		},
		async finish(callback: URL, flow: FlowSecrets, redirectUri: string): Promise<ProviderProfile> {
			const config = await configuration();
			let claims: client.IDToken | undefined;
			try {
				const tokens = await client.authorizationCodeGrant(
					config,
					callback,
					{ pkceCodeVerifier: flow.codeVerifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true },
					{ redirect_uri: redirectUri }
				);
				claims = tokens.claims();
			} catch (err) {
				const detail = err instanceof Error ? err.message : String(err);
				// openid-client names the check that failed; a nonce or claim mismatch is the token's fault, not the network's.
				const problem = /nonce|claim|"iss"|"aud"|ID Token|JWT/i.test(detail) ? 'token' : 'provider';
				throw new SignInFlowError(problem, `Sign-in at ${cfg.issuer} failed: ${detail}`, { cause: err });
			}
			if (!claims) throw new SignInFlowError('token', 'The provider sent no ID token.');
			const email = text(claims.email);
			const preferred = text(claims.preferred_username);
			const name = text(claims.name);
			return {
				provider: 'oidc',
				subject: claims.sub,
				label: email ?? preferred ?? name ?? claims.sub,
				nameHints: [preferred, email?.split('@')[0], name].filter((x): x is string => Boolean(x))
			};
		}
	};
}
