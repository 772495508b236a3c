/**
 * The text window's reading settings as the settings panel sees them. The play page owns the real
 * object (shared with its text window) and passes it in; this interface is what the panel needs of
 * it. `LocalReader` is the stand-in when no page object is given: it keeps the same localStorage
 * entry and shape as the page's reader settings (`kantera.reader`), so both read the same choice.
 */
import { DEFAULT_AUTO_DELAY_MS, MAX_AUTO_DELAY_MS } from '../../adv';

export const TEXT_SPEED_NAMES = ['slow', 'normal', 'fast', 'instant'] as const;
export type TextSpeedName = (typeof TEXT_SPEED_NAMES)[number];

export interface ReaderControls {
	readonly speed: TextSpeedName;
	readonly auto: boolean;
	autoDelayMs: number;
	setSpeed(speed: TextSpeedName): void;
	setAuto(auto: boolean): void;
	/** When the owner has it, the panel saves the delay through it; otherwise it sets `autoDelayMs` and saves through setAuto. */
	setAutoDelay?(ms: number): void;
}

/** The auto-mode delay slider: half a second to ten seconds. */
export const AUTO_DELAY_MIN_MS = 500;
export const AUTO_DELAY_MAX_MS = Math.min(10_000, MAX_AUTO_DELAY_MS);
export const AUTO_DELAY_STEP_MS = 500;

const STORAGE_KEY = 'kantera.reader';

export interface ReaderStorage {
	getItem(key: string): string | null;
	setItem(key: string, value: string): void;
}

function isSpeed(value: unknown): value is TextSpeedName {
	return typeof value === 'string' && (TEXT_SPEED_NAMES as readonly string[]).includes(value);
}

export class LocalReader implements ReaderControls {
	speed = $state<TextSpeedName>('normal');
	auto = $state(false);
	autoDelayMs = $state(DEFAULT_AUTO_DELAY_MS);

	constructor(private readonly storage: ReaderStorage | null) {
		const raw = storage?.getItem(STORAGE_KEY) ?? null;
		if (raw === null) return;
		try {
			const parsed: unknown = JSON.parse(raw);
			if (typeof parsed !== 'object' || parsed === null) return;
			const o: Record<string, unknown> = { ...parsed };
			if (isSpeed(o.speed)) this.speed = o.speed;
			if (typeof o.auto === 'boolean') this.auto = o.auto;
			const delay = o.autoDelayMs;
			if (typeof delay === 'number' && Number.isFinite(delay) && delay >= 0 && delay <= MAX_AUTO_DELAY_MS) this.autoDelayMs = delay;
		} catch {
			// A hand-edited or foreign value: keep the defaults.
		}
	}

	setSpeed(speed: TextSpeedName): void {
		this.speed = speed;
		this.save();
	}

	setAuto(auto: boolean): void {
		this.auto = auto;
		this.save();
	}

	setAutoDelay(ms: number): void {
		this.autoDelayMs = Math.min(MAX_AUTO_DELAY_MS, Math.max(0, ms));
		this.save();
	}

	private save(): void {
		try {
			this.storage?.setItem(STORAGE_KEY, JSON.stringify({ speed: this.speed, auto: this.auto, autoDelayMs: this.autoDelayMs }));
		} catch {
			// Storage full or blocked (private mode): the choice still holds for this page.
		}
	}
}

/** Saves the delay through whichever the owner offers. */
export function setAutoDelay(reader: ReaderControls, ms: number): void {
	if (reader.setAutoDelay) {
		reader.setAutoDelay(ms);
		return;
	}
	reader.autoDelayMs = ms;
	reader.setAuto(reader.auto);
}

/** The browser's localStorage, or null where there is none or it is blocked. */
export function browserStorage(): ReaderStorage | null {
	try {
		return typeof localStorage === 'undefined' ? null : localStorage;
	} catch {
		return null;
	}
}
