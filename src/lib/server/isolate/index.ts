/**
 * Isolate hosts (Cloudflare Workers): the app per request on the Worker, the app per play session in the
 * session's own object (a Durable Object) with its alarm, and the hook that picks between them.
 */
export { handleIsolate } from './hook';
