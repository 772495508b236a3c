// The layers of src/lib/server, lowest first: the one table of which capability may import which, read by
// scripts/check-boundaries.js (part of `npm run lint`). A capability may import its own layer and the ones below it,
// never one above, and no capabilities may import one another in a circle; type-only imports count for both, since a
// type is part of what a module needs. `app.ts` is src/lib/server/app.ts: it builds the process's resources from the
// capabilities below it, and api, hooks and cli above it ask it for them (`getApp`, `createApp`). Routes
// (src/routes, src/hooks.server.ts) are above everything and are not listed. docs/architecture.md ("Direction of
// imports") prints the same table and its capability table has a row per folder; the script fails when they differ.
// Where a folder goes: above everything it imports and below everything that imports it (a new folder that is in no
// layer fails the script).

/** @type {readonly (readonly string[])[]} */
export const LAYERS = [
	['config', 'validation', 'retry', 'jobs', 'db', 'ops'],
	['records', 'search', 'budget', 'llm', 'context-window', 'events', 'session-setup', 'auth'],
	['stage', 'tools', 'tiers', 'canon'],
	['turn', 'images', 'worlds', 'sessions', 'play', 'timetravel', 'presets', 'gallery', 'usage', 'audit'],
	['app.ts'],
	['api', 'hooks', 'cli', 'isolate']
];

/**
 * Upward imports let through, `'from -> to'` with the reason each is right where it is. Empty: fix an upward import
 * by moving what is imported down (or declaring the narrow interface the lower capability needs), not here.
 * @type {ReadonlyMap<string, string>}
 */
export const ALLOWED_UPWARD = new Map();
