/** What every sign-in provider adapter offers, whatever protocol it speaks underneath. */
import type { SignInProvider } from '../../../types/account';

/** The secrets of one sign-in attempt, kept in the browser's flow cookie until the provider sends it back. */
export interface FlowSecrets {
	state: string;
	codeVerifier: string;
	/** Sent to OpenID Connect providers and checked in the ID token; GitHub (plain OAuth 2.0) has none. */
	nonce: string;
}

/** The person as the provider knows them: a stable subject, and what to call them. */
export interface ProviderProfile {
	provider: SignInProvider;
	subject: string;
	/** Shown on the account page next to the link (an e-mail address or a login). */
	label: string;
	/** Account names to propose, best first (preferred username, login, e-mail's local part, name). */
	nameHints: string[];
}

export interface SignInClient {
	readonly id: SignInProvider;
	/** The button's label. */
	readonly label: string;
	/** Where to send the browser, with PKCE (S256), state and (OIDC) nonce. */
	authorizationUrl(flow: FlowSecrets, redirectUri: string): Promise<URL>;
	/** Exchanges the code from `callback` (state already checked), checks the ID token and its nonce, and reads the profile. */
	finish(callback: URL, flow: FlowSecrets, redirectUri: string): Promise<ProviderProfile>;
}
