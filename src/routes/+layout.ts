import { loadMessages } from '$lib/i18n';
import type { LayoutLoad } from './$types';

/** The reader's UI strings, and only theirs, are loaded before any page renders (the other language stays unfetched). */
export const load: LayoutLoad = async ({ data }) => {
	await loadMessages(data.language);
	return data;
};
