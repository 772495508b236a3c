/**
 * The play screen's backlog: `Backlog.svelte` (mount it with sessionId, language, live messages and
 * onselect), its paging feed (`feed.svelte.ts`) and window onto the rows (`viewport.svelte.ts`), and the
 * pure pieces behind them (windowing math, rows from messages, the data model).
 */
export { default as Backlog } from './Backlog.svelte';
export type { BacklogSelection } from './types';

export { entriesOfAll } from './entries';
