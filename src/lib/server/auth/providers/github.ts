/**
 * GitHub (OAuth 2.0, not OpenID Connect) through arctic's OAuth 2.0 client: PKCE (S256) and state; the
 * person is read from the API with the access token. Their numeric id is the subject (a login can change).
 */
import * as v from 'valibot';
import { CodeChallengeMethod, OAuth2Client } from 'arctic';
import type { OAuthClientConfig } from '../../config';
import { SignInFlowError } from './errors';
import type { FlowSecrets, ProviderProfile, SignInClient } from './types';

const AUTHORIZATION = 'https://github.com/login/oauth/authorize';
const TOKEN = 'https://github.com/login/oauth/access_token';
const USER = 'https://api.github.com/user';
/** Only the public profile: no e-mail, no repositories. */
const SCOPES = ['read:user'];

const GitHubUser = v.looseObject({
	id: v.pipe(v.number(), v.integer()),
	login: v.pipe(v.string(), v.minLength(1)),
	name: v.optional(v.nullable(v.string()))
});

export function createGitHubClient(cfg: OAuthClientConfig): SignInClient {
	const client = (redirectUri: string) => new OAuth2Client(cfg.clientId, cfg.clientSecret ?? null, redirectUri);
	return {
		id: 'github',
		label: 'GitHub',
		async authorizationUrl(flow: FlowSecrets, redirectUri: string) {
			return client(redirectUri).createAuthorizationURLWithPKCE(
				AUTHORIZATION,
				flow.state,
				CodeChallengeMethod.S256,
				flow.codeVerifier,
				SCOPES
			);
		},
		async finish(callback: URL, flow: FlowSecrets, redirectUri: string): Promise<ProviderProfile> {
			const code = callback.searchParams.get('code');
			if (!code) throw new SignInFlowError('provider', 'GitHub sent no authorization code.');
			let user: v.InferOutput<typeof GitHubUser>;
			try {
				const tokens = await client(redirectUri).validateAuthorizationCode(TOKEN, code, flow.codeVerifier);
				const res = await fetch(USER, {
					headers: { authorization: `Bearer ${tokens.accessToken()}`, accept: 'application/vnd.github+json', 'user-agent': 'Kantera' }
				});
				if (!res.ok) throw new Error(`GET /user answered ${res.status}`);
				user = v.parse(GitHubUser, await res.json());
			} catch (err) {
				throw new SignInFlowError('provider', `GitHub sign-in failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
			}
			return { provider: 'github', subject: String(user.id), label: user.login, nameHints: [user.login, user.name ?? ''].filter(Boolean) };
		}
	};
}
