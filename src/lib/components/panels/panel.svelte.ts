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
	/**
	 * The refresh key the page's copy (`initial`) is as of: the page's copy is the records at page load,
	 * before any commit the screen saw (0). A panel first mounted later reads afresh.
	 */
	copyKey?: number | undefined;
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
 * Calls `read` each time the refresh key changes, and once at mount unless the page's copy is as of
 * the key the panel mounts with (`copyKey`; undefined: no copy). A drawer mounts when first opened,
 * which may be commits after the page loaded: its copy is stale then. Call it while the component
 * initialises.
 */
export function readOnCommit(refreshKey: () => number, copyKey: number | undefined, read: () => Promise<void>): void {
	let first = true;
	$effect(() => {
		const key = refreshKey();
		const fresh = first && copyKey === key;
		first = false;
		if (!fresh) void read();
	});
}
