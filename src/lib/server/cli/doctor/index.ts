/** `kantera doctor`: configuration, databases, orphans, image store, providers and backups, checked read-only. */
export { runDoctor, type Finding, type Status } from './checks';
