/** The clients the test identity provider registers, and the env that points Kantera at them. */
export const TEST_IDP_CLIENTS = [
	{ provider: 'oidc', clientId: 'kantera-oidc', clientSecret: 'oidc-test-secret-0123456789' },
	{ provider: 'google', clientId: 'kantera-google', clientSecret: 'google-test-secret-0123456789' }
] as const;

export function appEnvFor(issuer: string): Record<string, string> {
	const [oidc, google] = TEST_IDP_CLIENTS;
	return {
		KANTERA_OIDC_ISSUER: issuer,
		KANTERA_OIDC_CLIENT_ID: oidc.clientId,
		KANTERA_OIDC_CLIENT_SECRET: oidc.clientSecret,
		KANTERA_OIDC_NAME: 'Test IdP',
		KANTERA_GOOGLE_ISSUER: issuer,
		KANTERA_GOOGLE_CLIENT_ID: google.clientId,
		KANTERA_GOOGLE_CLIENT_SECRET: google.clientSecret
	};
}
