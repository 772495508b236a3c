/**
 * The db capability's surface for Node-only tools that look at local database files (the CLI's doctor). Not in
 * index.ts: file-client.ts loads the native libSQL driver and node:fs, which client.ts imports only for `file:` URLs
 * so that deployments on other runtimes never load them.
 */
export { filePathOf } from './file-client';
