/**
 * Sign-in settings: local password accounts on or off, and the OAuth 2.0 / OpenID Connect providers an
 * operator configured. A provider is configured by its client id (and secret); half a pair stops start-up.
 */
import * as v from 'valibot';
import { Bool, HttpUrl, NonEmpty } from './env-values';
import type { SignInProvider } from '../../types/account';

/** Spread into the environment schema of config/index.ts. */
export const AUTH_ENV_ENTRIES = {
	/** `false` turns local (username + password) accounts off: sign-in only through a provider. */
	KANTERA_LOCAL_ACCOUNTS: v.optional(Bool, 'true'),
	KANTERA_GOOGLE_CLIENT_ID: v.optional(NonEmpty),
	KANTERA_GOOGLE_CLIENT_SECRET: v.optional(NonEmpty),
	/** Another issuer speaking Google's protocol (its endpoints found by discovery); unset means Google. */
	KANTERA_GOOGLE_ISSUER: v.optional(HttpUrl),
	KANTERA_GITHUB_CLIENT_ID: v.optional(NonEmpty),
	KANTERA_GITHUB_CLIENT_SECRET: v.optional(NonEmpty),
	/** Any OpenID Connect provider by issuer URL (Keycloak, Authentik, Auth0…), found by discovery. */
	KANTERA_OIDC_ISSUER: v.optional(HttpUrl),
	KANTERA_OIDC_CLIENT_ID: v.optional(NonEmpty),
	/** Optional: a public client signs in with PKCE alone. */
	KANTERA_OIDC_CLIENT_SECRET: v.optional(NonEmpty),
	/** The button's label, e.g. "Company SSO". */
	KANTERA_OIDC_NAME: v.optional(v.pipe(NonEmpty, v.maxLength(40, 'must be at most 40 characters')), 'OpenID Connect'),
	/** Scopes asked of the generic provider. */
	KANTERA_OIDC_SCOPES: v.optional(NonEmpty, 'openid profile email')
};

type AuthEnv = v.InferOutput<v.ObjectSchema<typeof AUTH_ENV_ENTRIES, undefined>>;

export interface OAuthClientConfig {
	clientId: string;
	clientSecret: string | undefined;
}

export interface SignInProvidersConfig {
	google?: OAuthClientConfig & { issuer: string | undefined };
	github?: OAuthClientConfig;
	oidc?: OAuthClientConfig & { issuer: string; name: string; scopes: string[] };
}

export interface AuthProvidersConfig {
	localAccounts: boolean;
	providers: SignInProvidersConfig;
}

/** The providers in the order their buttons appear. */
function configuredProviders(cfg: SignInProvidersConfig): SignInProvider[] {
	return (['google', 'github', 'oidc'] as const).filter((p) => cfg[p] !== undefined);
}

function pair(
	prefix: string,
	id: string | undefined,
	secret: string | undefined,
	secretRequired: boolean
): OAuthClientConfig | undefined | { error: string } {
	if (id === undefined && secret === undefined) return undefined;
	if (id === undefined) return { error: `${prefix}_CLIENT_ID: required when ${prefix}_CLIENT_SECRET is set` };
	if (secret === undefined && secretRequired) return { error: `${prefix}_CLIENT_SECRET: required when ${prefix}_CLIENT_ID is set` };
	return { clientId: id, clientSecret: secret };
}

export function authProvidersConfig(e: AuthEnv): AuthProvidersConfig | { error: string } {
	const providers: SignInProvidersConfig = {};
	const google = pair('KANTERA_GOOGLE', e.KANTERA_GOOGLE_CLIENT_ID, e.KANTERA_GOOGLE_CLIENT_SECRET, true);
	if (google && 'error' in google) return google;
	if (google) providers.google = { ...google, issuer: e.KANTERA_GOOGLE_ISSUER?.replace(/\/+$/, '') };
	const github = pair('KANTERA_GITHUB', e.KANTERA_GITHUB_CLIENT_ID, e.KANTERA_GITHUB_CLIENT_SECRET, true);
	if (github && 'error' in github) return github;
	if (github) providers.github = github;
	const oidc = pair('KANTERA_OIDC', e.KANTERA_OIDC_CLIENT_ID, e.KANTERA_OIDC_CLIENT_SECRET, false);
	if (oidc && 'error' in oidc) return oidc;
	if (oidc && e.KANTERA_OIDC_ISSUER === undefined) return { error: 'KANTERA_OIDC_ISSUER: required when KANTERA_OIDC_CLIENT_ID is set' };
	if (!oidc && e.KANTERA_OIDC_ISSUER !== undefined) return { error: 'KANTERA_OIDC_CLIENT_ID: required when KANTERA_OIDC_ISSUER is set' };
	if (oidc && e.KANTERA_OIDC_ISSUER !== undefined) {
		providers.oidc = { ...oidc, issuer: e.KANTERA_OIDC_ISSUER, name: e.KANTERA_OIDC_NAME, scopes: e.KANTERA_OIDC_SCOPES.split(/\s+/) };
	}
	if (!e.KANTERA_LOCAL_ACCOUNTS && configuredProviders(providers).length === 0) {
		return {
			error:
				'KANTERA_LOCAL_ACCOUNTS: false needs a sign-in provider (KANTERA_GOOGLE_*, KANTERA_GITHUB_* or KANTERA_OIDC_*), or nobody could sign in'
		};
	}
	return { localAccounts: e.KANTERA_LOCAL_ACCOUNTS, providers };
}
