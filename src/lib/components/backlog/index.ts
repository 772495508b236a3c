/**
 * The play screen's backlog: `Backlog.svelte` (mount it with sessionId, language, live messages and
 * onselect) and the pure pieces behind it (windowing math, rows from messages, the data model).
 */
export { default as Backlog } from './Backlog.svelte';
export type { BacklogSelection } from './types';
export { BacklogModel, type BacklogMessage, type Merge } from './model';
export { HeightIndex, anchoredScrollTop, nextRow, type RowRange } from './windowing';
export { entriesOf, entriesOfAll, estimateHeight, type BacklogEntry, type EntryKind } from './entries';
