/** The side panels' tabs, in screen order. */
export const PANEL_TABS = ['state', 'journal', 'documents', 'settings'] as const;
export type PanelTab = (typeof PANEL_TABS)[number];

export function isPanelTab(value: unknown): value is PanelTab {
	return typeof value === 'string' && (PANEL_TABS as readonly string[]).includes(value);
}
