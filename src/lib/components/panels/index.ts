/**
 * The play screen's side panels: `SidePanels.svelte` (tabs for State, Journal, Documents, Settings)
 * and its parts, the safe Markdown reader, and the reading-settings interface it shares with the
 * text window.
 */
export { default as SidePanels } from './SidePanels.svelte';
export { default as StatePanel } from './StatePanel.svelte';
export { default as JournalPanel } from './JournalPanel.svelte';
export { default as DocumentsPanel } from './DocumentsPanel.svelte';
export { default as SettingsPanel } from './SettingsPanel.svelte';
export { default as Markdown } from './Markdown.svelte';
export { default as JsonTree } from './JsonTree.svelte';
export { PANEL_TABS, isPanelTab, type PanelTab } from './tabs';
export { parseMarkdown, parseInline, inlineText, type Block, type Inline } from './markdown';
export { panelClient, PanelApiError, JOURNAL_PAGE, type PanelClient } from './api';
export { LocalReader, setAutoDelay, browserStorage, TEXT_SPEED_NAMES, AUTO_DELAY_MIN_MS, AUTO_DELAY_MAX_MS, type ReaderControls, type TextSpeedName, type ReaderStorage } from './reader.svelte';
