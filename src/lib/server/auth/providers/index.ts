/** The sign-in providers this server is configured for, built once per process (discovery is cached inside). */
import type { SignInProvidersConfig } from '../../config';
import type { SignInProvider } from '../../../types/account';
import { createGitHubClient } from './github';
import { createGoogleClient } from './google';
import { createOidcClient } from './oidc';
import type { SignInClient } from './types';

export { SignInFlowError, type SignInFlowProblem } from './errors';
export { checkIdToken } from './google';

export type { FlowSecrets, ProviderProfile, SignInClient } from './types';

export class SignInProviders {
	private readonly clients = new Map<SignInProvider, SignInClient>();

	constructor(cfg: SignInProvidersConfig) {
		if (cfg.google) this.clients.set('google', createGoogleClient(cfg.google));
		if (cfg.github) this.clients.set('github', createGitHubClient(cfg.github));
		if (cfg.oidc) this.clients.set('oidc', createOidcClient(cfg.oidc));
	}

	get(id: SignInProvider): SignInClient | undefined {
		return this.clients.get(id);
	}

	/** In button order, with their labels. */
	list(): { id: SignInProvider; label: string }[] {
		return [...this.clients.values()].map((c) => ({ id: c.id, label: c.label }));
	}
}
