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

const readKey = (sessionId: string) => `kantera.read.${sessionId}`;
const positionKey = (sessionId: string) => `kantera.at.${sessionId}`;

/**
 * A save loaded as a new session opens where the save was made (issue 24): on this device, the new
 * session starts with the line the save was made on (`at`, as the screen keys lines; the ids are the
 * same in the copy) and with what was read in the session it came from, so Skip goes by it there too.
 */
export function carryReading(storage: ReadStorage, from: string, to: string, at: string | null): void {
	try {
		const read = storage.getItem(readKey(from));
		if (read !== null) storage.setItem(readKey(to), read);
		if (at !== null) storage.setItem(positionKey(to), at);
	} catch {
		// Storage full or blocked: the new session opens on its last exchange, as any session without a place.
	}
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
		return readKey(this.sessionId);
	}

	private positionKey(): string {
		return positionKey(this.sessionId);
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
