/**
 * A real OpenID Connect provider for the tests: `oidc-provider` (the certified Node implementation) with the
 * clients Kantera is registered as, and a scripted login and consent: the login page takes any account name
 * (the tests type one), the consent page has one "Allow" button. Nothing about the protocol is faked.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type ClientMetadata } from 'oidc-provider';

export interface TestClient {
	clientId: string;
	clientSecret: string;
	/** The app's `/auth/{provider}/callback`. */
	redirectUri: string;
}

export interface TestIdp {
	issuer: string;
	close(): Promise<void>;
}

function page(title: string, body: string): string {
	return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function formBody(req: http.IncomingMessage): Promise<URLSearchParams> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
	return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Starts the provider on `port` (0: any free port) of 127.0.0.1. */
export async function startTestIdp(opts: { port?: number; clients: TestClient[] }): Promise<TestIdp> {
	const server = http.createServer();
	await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const issuer = `http://127.0.0.1:${port}`;
	const clients: ClientMetadata[] = opts.clients.map((c) => ({
		client_id: c.clientId,
		client_secret: c.clientSecret,
		redirect_uris: [c.redirectUri],
		grant_types: ['authorization_code'],
		response_types: ['code'],
		token_endpoint_auth_method: 'client_secret_basic'
	}));
	const provider = new Provider(issuer, {
		clients,
		// Every account exists; its claims are made from its name.
		findAccount: (_ctx, id) => ({
			accountId: id,
			claims: () => ({ sub: id, name: `${id} Tester`, preferred_username: id, email: `${id}@example.test`, email_verified: true })
		}),
		claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email', 'email_verified'] },
		// The profile and e-mail go into the ID token itself (the client reads no userinfo).
		conformIdTokenClaims: false,
		pkce: { required: () => true },
		features: { devInteractions: { enabled: false } },
		interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
		cookies: { keys: ['kantera-test-idp-cookie-key'] }
	});

	const interaction = async (req: http.IncomingMessage, res: http.ServerResponse, path: string) => {
		const details = await provider.interactionDetails(req, res);
		const uid = details.uid;
		if (req.method === 'GET') {
			res.setHeader('content-type', 'text/html; charset=utf-8');
			if (details.prompt.name === 'login') {
				return res.end(
					page(
						'Test IdP sign-in',
						`<form method="post" action="/interaction/${uid}/login"><label \
for="login">Account</label> <input id="login" name="login" autofocus> <button type="submit">Sign in \
at the IdP</button></form>`
					)
				);
			}
			return res.end(
				page(
					'Test IdP consent',
					`<p>Kantera asks for your profile and e-mail (${escape(String(details.params.client_id))}).</p><form \
method="post" action="/interaction/${uid}/consent"><button \
type="submit">Allow</button></form>`
				)
			);
		}
		if (path.endsWith('/login')) {
			const login = (await formBody(req)).get('login')?.trim();
			if (!login) return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'no account name' });
			return provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
		}
		const accountId = details.session?.accountId;
		const clientId = String(details.params.client_id);
		if (!accountId) return provider.interactionFinished(req, res, { error: 'login_required' });
		const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId, clientId });
		if (!grant) throw new Error('grant vanished');
		grant.addOIDCScope(typeof details.params.scope === 'string' ? details.params.scope : 'openid');
		const grantId = await grant.save();
		return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
	};

	const callback = provider.callback();
	server.on('request', (req, res) => {
		const path = (req.url ?? '/').split('?')[0] ?? '/';
		if (path.startsWith('/interaction/')) {
			interaction(req, res, path).catch((err: unknown) => {
				res.statusCode = 500;
				res.end(String(err));
			});
			return;
		}
		void callback(req, res);
	});
	return {
		issuer,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			})
	};
}
