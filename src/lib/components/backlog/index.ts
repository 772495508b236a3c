/**
 * The play screen's backlog: `Backlog.svelte` (mount it with sessionId, language, live messages and
 * onselect) and the pure pieces behind it (windowing math, rows from messages, the data model).
 */
export { default as Backlog } from './Backlog.svelte';
export type { BacklogSelection } from './types';

export { entriesOfAll } from './entries';
