/**
 * Account names shared by the server and the browser: the sign-in providers and the tiers.
 */
import * as v from 'valibot';

/** OAuth 2.0 / OpenID Connect providers a person can sign in with; each is `/auth/{provider}`. */
export const SIGN_IN_PROVIDERS = ['google', 'github', 'oidc'] as const;
export type SignInProvider = (typeof SIGN_IN_PROVIDERS)[number];
export const SignInProviderSchema = v.picklist(SIGN_IN_PROVIDERS, 'provider must be google, github or oidc');

export function isSignInProvider(value: unknown): value is SignInProvider {
	return SIGN_IN_PROVIDERS.some((p) => p === value);
}

/** `free`: a daily turn quota, the model fixed by the operator, no hand-made image regeneration. `plus`: none of those limits. */
export const TIERS = ['free', 'plus'] as const;
export type Tier = (typeof TIERS)[number];
export const TierSchema = v.picklist(TIERS, 'tier must be free or plus');
