/**
 * The play screen's record panels (shown as drawers and sheets over the stage): the state as a
 * sheet, the journal, the documents (read and edit) and the session's settings, the safe Markdown
 * reader, and their calls to the API.
 */
export { default as StatePanel } from './StatePanel.svelte';
export { default as JournalPanel } from './JournalPanel.svelte';
export { default as DocumentsPanel } from './DocumentsPanel.svelte';
export { default as SettingsPanel } from './SettingsPanel.svelte';

export { panelClient, type PanelClient } from './api';
export { describeApiError, scopeLabel } from './api-errors';
