/**
 * The db capability's surface for Node-only code that looks at local database files and their folder (the CLI's
 * doctor and restore, the server's lock on its data directory). Not in index.ts: file-client.ts loads the native
 * libSQL driver and node:fs, which client.ts imports only for `file:` URLs, and server-lock.ts uses node:fs, so that
 * deployments on other runtimes never load them.
 */
export { filePathOf } from './file-client';
export { holdDataDir, serversHolding, type ServerLock } from './server-lock';
