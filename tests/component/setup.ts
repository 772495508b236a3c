/**
 * Set-up of the `component` vitest project (components in jsdom, Svelte's browser build).
 *
 * SvelteKit's client runtime is not started in a component test, so the `app` its `use:enhance`
 * decodes action data with (`app.decoders`, the `transport` hook's) is not there. The app has no
 * `transport` hook (src/hooks.ts), so the started app's decoders are none: the same here.
 */
import { vi } from 'vitest';
// A component under test has no root layout to load its reader's strings (`loadMessages`): both are registered.
import '../../src/lib/i18n/all-languages';

vi.mock('../../node_modules/@sveltejs/kit/src/runtime/client/client.js', async (importOriginal) => ({
	...(await importOriginal<Record<string, unknown>>()),
	app: { decoders: {} }
}));
