/**
 * What the side panels share: their props and the reads of the record panels (state, journal), which
 * read again after every commit.
 */
import type { translator } from '../../i18n';
import type { Language } from '../../types/settings';
import type { PanelClient } from './api';

export type Translate = ReturnType<typeof translator>;

export interface PanelProps {
	client: PanelClient;
	t: Translate;
}

/** A panel of records a commit changes; it starts from the page's copy, so it reads without JavaScript too. */
export interface RecordsPanelProps<Initial> extends PanelProps {
	/** Changes with every commit. */
	refreshKey: number;
	/** The language of the story: its labels and values. */
	storyLanguage: Language;
	initial?: Initial | undefined;
}

/** A panel's reads: whether one is under way, and the last one's error (worded) until one succeeds. */
export class Reads {
	loading = $state(false);
	error = $state<string>();

	/** `describe` words what a read threw in the reader's language (the panels pass `describeApiError`). */
	constructor(private readonly describe: (err: unknown) => string) {}

	async run(read: () => Promise<void>): Promise<void> {
		this.loading = true;
		try {
			await read();
			this.error = undefined;
		} catch (err) {
			this.error = this.describe(err);
		} finally {
			this.loading = false;
		}
	}
}

/**
 * Calls `read` each time the refresh key changes. The page's copy is fresh on the first look, so
 * with one (`hasCopy`) the first run reads nothing. Call it while the component initialises.
 */
export function readOnCommit(refreshKey: () => number, hasCopy: boolean, read: () => Promise<void>): void {
	let skipFirst = hasCopy;
	$effect(() => {
		void refreshKey();
		if (skipFirst) skipFirst = false;
		else void read();
	});
}
