/** `kantera doctor`: configuration, databases, orphans, image store, providers and backups, checked read-only. */
export { runDoctor } from './checks';
export type { Finding, Status } from './finding';
