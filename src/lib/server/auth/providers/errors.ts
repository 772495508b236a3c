/** Why a sign-in through a provider did not go through. The code travels in the redirect; the page words it. */
export type SignInFlowProblem =
	/** The account is suspended by an administrator. */
	| 'suspended'
	/** The flow cookie is missing or expired, or the state does not match it. */
	| 'state'
	/** The ID token is not for this attempt (nonce), or not from this provider for this client. */
	| 'token'
	/** The person declined at the provider, or the provider reported an error. */
	| 'denied'
	/** The provider could not be reached or answered something unusable. */
	| 'provider'
	/** No account yet and sign-up is closed. */
	| 'signup_closed'
	/** This provider account is already linked to another Kantera account. */
	| 'in_use'
	/** Linking needs a signed-in user (the session ended meanwhile). */
	| 'not_signed_in';

export class SignInFlowError extends Error {
	constructor(
		readonly problem: SignInFlowProblem,
		detail: string,
		options?: { cause?: unknown }
	) {
		super(detail, options);
		this.name = 'SignInFlowError';
	}
}
