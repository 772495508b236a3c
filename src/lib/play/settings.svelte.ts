/**
 * The reader's text settings: reveal speed and auto mode. Kept in this browser (localStorage), not
 * in the session: they are about how this person reads, on this device.
 */
import { DEFAULT_AUTO_DELAY_MS, DEFAULT_CHARS_PER_SECOND, MAX_AUTO_DELAY_MS } from '../adv';

/** The speeds offered, in graphemes per second; 0 shows each paragraph at once. */
export const TEXT_SPEEDS = { slow: 20, normal: DEFAULT_CHARS_PER_SECOND, fast: 80, instant: 0 } as const;
export type TextSpeed = keyof typeof TEXT_SPEEDS;
export const TEXT_SPEED_NAMES: readonly TextSpeed[] = ['slow', 'normal', 'fast', 'instant'];

const STORAGE_KEY = 'kantera.reader';

export function isTextSpeed(value: unknown): value is TextSpeed {
	return typeof value === 'string' && value in TEXT_SPEEDS;
}

/** Minimal storage surface, so tests can pass a Map-backed one. */
export interface SettingsStorage {
	getItem(key: string): string | null;
	setItem(key: string, value: string): void;
}

export interface StoredSettings {
	speed: TextSpeed;
	auto: boolean;
	autoDelayMs: number;
}

/** Reads stored settings defensively: a hand-edited or old value falls back to the default. */
export function readStoredSettings(raw: string | null, reducedMotion: boolean): StoredSettings {
	// Someone who asked the system for less motion gets the text at once unless they choose otherwise.
	const fallback: StoredSettings = { speed: reducedMotion ? 'instant' : 'normal', auto: false, autoDelayMs: DEFAULT_AUTO_DELAY_MS };
	if (raw === null) return fallback;
	try {
		const parsed: unknown = JSON.parse(raw);
		if (typeof parsed !== 'object' || parsed === null) return fallback;
		const o: Record<string, unknown> = { ...parsed };
		const delay = o.autoDelayMs;
		return {
			speed: isTextSpeed(o.speed) ? o.speed : fallback.speed,
			auto: typeof o.auto === 'boolean' ? o.auto : fallback.auto,
			autoDelayMs: typeof delay === 'number' && Number.isFinite(delay) && delay >= 0 && delay <= MAX_AUTO_DELAY_MS ? delay : fallback.autoDelayMs
		};
	} catch {
		return fallback;
	}
}

export class ReaderSettings {
	speed = $state<TextSpeed>('normal');
	auto = $state(false);
	autoDelayMs = $state(DEFAULT_AUTO_DELAY_MS);
	readonly charsPerSecond = $derived(TEXT_SPEEDS[this.speed]);

	private storage: SettingsStorage | null = null;

	/** Loads what this browser stored, and stores changes there from now on (browser only). */
	attach(storage: SettingsStorage | null, reducedMotion: boolean): void {
		this.storage = storage;
		const stored = readStoredSettings(this.storage?.getItem(STORAGE_KEY) ?? null, reducedMotion);
		this.speed = stored.speed;
		this.auto = stored.auto;
		this.autoDelayMs = stored.autoDelayMs;
	}

	setSpeed(speed: TextSpeed): void {
		this.speed = speed;
		this.save();
	}

	setAuto(auto: boolean): void {
		this.auto = auto;
		this.save();
	}

	setAutoDelay(ms: number): void {
		if (!Number.isFinite(ms)) return;
		this.autoDelayMs = Math.min(MAX_AUTO_DELAY_MS, Math.max(0, ms));
		this.save();
	}

	private save(): void {
		try {
			this.storage?.setItem(STORAGE_KEY, JSON.stringify({ speed: this.speed, auto: this.auto, autoDelayMs: this.autoDelayMs }));
		} catch {
			// Storage full or blocked (private mode): the setting still holds for this page.
		}
	}
}
