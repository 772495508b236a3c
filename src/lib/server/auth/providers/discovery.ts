/** OpenID Connect discovery through openid-client, with the one exception made for a loopback issuer. */
import * as client from 'openid-client';
import type { Endpoints } from './google';

export interface Discovered {
	config: client.Configuration;
	endpoints: Endpoints;
}

/**
 * Plain http is refused by openid-client, rightly; an issuer on this very machine (a development or test
 * identity provider on 127.0.0.1 or localhost) is the one place it is allowed, since nothing crosses a network.
 */
function isLoopback(url: URL): boolean {
	return url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
}

export async function discover(issuer: string, clientId: string, clientSecret: string | undefined): Promise<Discovered> {
	const url = new URL(issuer);
	const insecure = url.protocol === 'http:' && isLoopback(url);
	const config = await client.discovery(
		url,
		clientId,
		undefined,
		clientSecret === undefined ? client.None() : client.ClientSecretBasic(clientSecret),
		// openid-client marks this deprecated only so that it stands out; it is used for a loopback issuer alone.
		// eslint-disable-next-line @typescript-eslint/no-deprecated
		insecure ? { execute: [client.allowInsecureRequests] } : undefined
	);
	const meta = config.serverMetadata();
	if (!meta.authorization_endpoint || !meta.token_endpoint) throw new Error(`${issuer} publishes no authorization or token endpoint`);
	return { config, endpoints: { issuer: meta.issuer, authorization: meta.authorization_endpoint, token: meta.token_endpoint } };
}
