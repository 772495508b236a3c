/**
 * The paragraphs read on this device, per session, kept in the browser's storage: the reveal skips
 * past them. Bookkeeping nothing renders, so a plain set rather than reactive state.
 */

/** Remembered read paragraphs per session; older ones drop off first. */
const MAX_READ_KEYS = 2000;

export interface ReadStorage {
	getItem(key: string): string | null;
	setItem(key: string, value: string): void;
}

export class ReadMarks {
	private readonly read = new Set<string>();
	private storage: ReadStorage | null = null;

	constructor(private readonly sessionId: string) {}

	/** The paragraph keys read so far. */
	get keys(): ReadonlySet<string> {
		return this.read;
	}

	/** Connects the device's storage and adds what it remembers. */
	attach(storage: ReadStorage | null): void {
		this.storage = storage;
		for (const key of this.load()) this.read.add(key);
	}

	has(key: string): boolean {
		return this.read.has(key);
	}

	/** Marks paragraphs read, and stores them if any was new. */
	note(keys: Iterable<string>): void {
		let added = false;
		for (const k of keys) {
			if (!this.read.has(k)) {
				this.read.add(k);
				added = true;
			}
		}
		if (added) this.save();
	}

	private storageKey(): string {
		return `kantera.read.${this.sessionId}`;
	}

	private load(): string[] {
		try {
			const raw = this.storage?.getItem(this.storageKey());
			if (!raw) return [];
			const parsed: unknown = JSON.parse(raw);
			return Array.isArray(parsed) ? parsed.filter((k): k is string => typeof k === 'string') : [];
		} catch {
			return [];
		}
	}

	private save(): void {
		if (!this.storage) return;
		try {
			const keys = [...this.read].slice(-MAX_READ_KEYS);
			this.storage.setItem(this.storageKey(), JSON.stringify(keys));
		} catch {
			// Storage full or blocked: skipping read text only lasts for this page then.
		}
	}
}
