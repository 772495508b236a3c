/**
 * Sign-in through a real OpenID Connect provider (oidc-provider, started by Playwright with Kantera's clients
 * registered; see tests/oidc), in Chromium, against a server with local accounts off. The same provider also
 * stands in for Google's preset (KANTERA_GOOGLE_ISSUER), which makes it the second provider to link.
 */
import { expect, test, type Page } from '@playwright/test';
import { uniqueName } from './helpers';

/** Through the IdP's scripted pages: its login (when it has no session yet) and its consent (when asked). */
async function atIdp(page: Page, account: string): Promise<void> {
	await page.waitForURL(
		(url) =>
			url.pathname.startsWith('/interaction/') || url.pathname.startsWith('/account') || url.pathname === '/' || url.pathname === '/signin'
	);
	if (await page.getByRole('heading', { name: 'Test IdP sign-in' }).isVisible()) {
		await page.getByLabel('Account').fill(account);
		await page.getByRole('button', { name: 'Sign in at the IdP' }).click();
	}
	await page.waitForURL((url) => url.pathname.startsWith('/interaction/') || !url.port.endsWith(process.env.KANTERA_E2E_IDP_PORT ?? '-'));
	const allow = page.getByRole('button', { name: 'Allow' });
	if (await allow.isVisible()) await allow.click();
}

async function signInWithIdp(page: Page, account: string): Promise<void> {
	await page.goto('/signin');
	await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
	await atIdp(page, account);
}

test('with local accounts off the sign-in page offers only the providers', async ({ page }) => {
	await page.goto('/signin');
	await expect(page.getByRole('link', { name: 'Sign in with Test IdP' })).toBeVisible();
	await expect(page.getByRole('link', { name: 'Sign in with Google' })).toBeVisible();
	await expect(page.getByLabel('Username')).toHaveCount(0);
	await page.screenshot({ path: test.info().outputPath('signin-providers.png') });
	// The same page in Japanese (the header's language switch).
	await page.getByLabel('Display language').selectOption('ja');
	await page.getByRole('button', { name: 'Change', exact: true }).click();
	await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
	await expect(page.getByRole('link', { name: 'Google でサインイン' })).toBeVisible();
	await page.screenshot({ path: test.info().outputPath('signin-providers-ja.png') });
	await page.getByLabel('表示言語').selectOption('en');
	await page.getByRole('button', { name: '変更', exact: true }).click();
	await expect(page.locator('html')).toHaveAttribute('lang', 'en');
	await page.goto('/signup');
	await expect(page.getByText('Accounts are created by signing in with a provider on this server.')).toBeVisible();
});

test('the first sign-in creates the account with an editable name; the second signs into it', async ({ page }) => {
	const account = uniqueName('alice');
	await signInWithIdp(page, account);
	await expect(page).toHaveURL(/\/account\?welcome=1$/);
	await expect(page.getByText('Welcome! Your account was created')).toBeVisible();
	// The name proposed from the profile (preferred_username), editable.
	const nameField = page.getByRole('textbox', { name: 'Account name' });
	await expect(nameField).toHaveValue(account);
	await expect(page.getByText(`Signed in as ${account}`)).toBeVisible();
	await expect(page.getByTestId('tier')).toHaveText('Free');
	const renamed = `${account.slice(0, 26)}-w`;
	await nameField.fill(renamed);
	await page.getByRole('button', { name: 'Save name' }).click();
	await expect(page.getByText(`Your name is now ${renamed}.`)).toBeVisible();
	await page.screenshot({ path: test.info().outputPath('account-page.png'), fullPage: true });

	await page.getByRole('button', { name: 'Sign out' }).click();
	await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();
	// The IdP still knows the browser: no login or consent this time, straight back into the same account.
	await signInWithIdp(page, account);
	await expect(page).toHaveURL(/\/$/);
	await expect(page.getByText(`Signed in as ${renamed}`)).toBeVisible();
});

/**
 * Rewrites one parameter of the authorization request Kantera sends the browser to (the Location of its
 * `GET /auth/oidc`): what an attacker who swaps the request in flight would do. Redirect hops are not routed
 * by Playwright, so the start is fetched here and answered with the altered redirect.
 */
async function tamperAuthorizationRequest(page: Page, param: 'state' | 'nonce', value: string): Promise<void> {
	await page.route('**/auth/oidc?**', async (route) => {
		const response = await route.fetch({ maxRedirects: 0 });
		const location = new URL(response.headers()['location'] ?? '');
		expect(location.searchParams.get(param)).toBeTruthy();
		location.searchParams.set(param, value);
		await route.fulfill({ response, headers: { ...response.headers(), location: location.href } });
	});
}

test('a tampered state is refused and signs nobody in', async ({ page }) => {
	await tamperAuthorizationRequest(page, 'state', 'forged-state-value-0123456789');
	await signInWithIdp(page, uniqueName('mallory'));
	await expect(page).toHaveURL(/\/signin\?error=state$/);
	await expect(page.getByRole('alert')).toContainText('could not be verified');
	await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();
});

test('a tampered nonce is refused: the ID token does not belong to this attempt', async ({ page }) => {
	// The IdP signs the forged nonce into the ID token; the callback expects the one it sent.
	await tamperAuthorizationRequest(page, 'nonce', 'forged-nonce-value-0123456789');
	await signInWithIdp(page, uniqueName('mallory'));
	await expect(page).toHaveURL(/\/signin\?error=token$/);
	await expect(page.getByRole('alert')).toContainText('did not belong to this sign-in attempt');
	await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();
});

test('a second provider can be linked; the last way in cannot be unlinked', async ({ page }) => {
	const account = uniqueName('bob');
	await signInWithIdp(page, account);
	await expect(page).toHaveURL(/\/account\?welcome=1$/);
	await expect(page.getByTestId('provider-google')).toContainText('not linked');

	await page.getByRole('link', { name: 'Link Google' }).click();
	await atIdp(page, account);
	await expect(page).toHaveURL(/\/account\?linked=google$/);
	await expect(page.getByText('Google is now linked to your account.')).toBeVisible();
	await expect(page.getByTestId('provider-google')).toContainText(`linked as ${account}@example.test`);
	await page.screenshot({ path: test.info().outputPath('account-linked.png'), fullPage: true });

	// Two ways in: one may go.
	await page.getByRole('button', { name: 'Unlink Google' }).click();
	await expect(page.getByText('Google was unlinked.')).toBeVisible();
	await expect(page.getByTestId('provider-google')).toContainText('not linked');
	// The last one may not (local accounts are off, so there is no password to fall back on).
	await page.getByRole('button', { name: 'Unlink Test IdP' }).click();
	await expect(page.getByRole('alert')).toContainText('last way to sign in');
	await page.reload();
	await expect(page.getByTestId('provider-oidc')).toContainText(`linked as ${account}@example.test`);
});
