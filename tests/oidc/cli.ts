/**
 * The test identity provider as a process, for Playwright's webServer list:
 *   node --import tsx tests/oidc/cli.ts --port P --app http://127.0.0.1:APP
 * registers `kantera-oidc` (for /auth/oidc/callback) and `kantera-google` (the Google preset pointed here
 * with KANTERA_GOOGLE_ISSUER), secrets as in TEST_IDP_CLIENTS.
 */
import { parseArgs } from 'node:util';
import { startTestIdp } from './provider';
import { TEST_IDP_CLIENTS } from './clients';

const { values } = parseArgs({ options: { port: { type: 'string' }, app: { type: 'string' } } });
if (!values.port || !values.app) throw new Error('usage: cli.ts --port P --app http://127.0.0.1:APP');
const idp = await startTestIdp({
	port: Number(values.port),
	clients: TEST_IDP_CLIENTS.map((c) => ({
		clientId: c.clientId,
		clientSecret: c.clientSecret,
		redirectUri: `${values.app}/auth/${c.provider}/callback`
	}))
});
console.log(`test IdP at ${idp.issuer}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void idp.close().then(() => process.exit(0)));
