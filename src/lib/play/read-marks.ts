/**
 * The paragraphs read on this device, per session, kept in the browser's storage (Skip goes by
 * them), and the paragraph the reader was on (the window opens there again). Bookkeeping nothing
 * renders, so plain fields rather than reactive state.
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
	private at: string | null = null;

	constructor(private readonly sessionId: string) {}

	/** The paragraph keys read so far. */
	get keys(): ReadonlySet<string> {
		return this.read;
	}

	/** Connects the device's storage and adds what it remembers. */
	attach(storage: ReadStorage | null): void {
		this.storage = storage;
		for (const key of this.load()) this.read.add(key);
		this.at = this.readStorage(this.positionKey());
	}

	/** The paragraph the reader was on when last here, or null. */
	get position(): string | null {
		return this.at;
	}

	/** The reader is on paragraph `key` now. */
	place(key: string): void {
		if (key === this.at) return;
		this.at = key;
		this.write(this.positionKey(), key);
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

	private positionKey(): string {
		return `kantera.at.${this.sessionId}`;
	}

	private readStorage(key: string): string | null {
		try {
			return this.storage?.getItem(key) ?? null;
		} catch {
			return null;
		}
	}

	private load(): string[] {
		try {
			const raw = this.readStorage(this.storageKey());
			if (!raw) return [];
			const parsed: unknown = JSON.parse(raw);
			return Array.isArray(parsed) ? parsed.filter((k): k is string => typeof k === 'string') : [];
		} catch {
			return [];
		}
	}

	private save(): void {
		this.write(this.storageKey(), JSON.stringify([...this.read].slice(-MAX_READ_KEYS)));
	}

	private write(key: string, value: string): void {
		if (!this.storage) return;
		try {
			this.storage.setItem(key, value);
		} catch {
			// Storage full or blocked: what was read, and where, only lasts for this page then.
		}
	}
}
