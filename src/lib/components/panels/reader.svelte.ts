/**
 * The text window's reading settings as the settings panel sees them. The play page owns the real
 * object (shared with its text window) and passes it in; this interface is what the panel needs of
 * it. `LocalReader` is the stand-in when no page object is given: it keeps the same localStorage
 * entry and shape as the page's reader settings (`kantera.reader`), so both read the same choice.
 */
import { MAX_AUTO_DELAY_MS } from '../../adv';
import { ReaderSettings, TEXT_SPEED_NAMES, type SettingsStorage, type TextSpeed } from '../../play/settings.svelte';

export { TEXT_SPEED_NAMES };
export type TextSpeedName = TextSpeed;

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

/** The storage surface the reader settings use (localStorage in a browser). */
export type ReaderStorage = SettingsStorage;

/**
 * The page's own reader settings, loaded from `storage` at once: the stand-in when the panels are
 * mounted without a page object (the same entry, shape and defaults, because it is the same class).
 */
export class LocalReader extends ReaderSettings {
	constructor(storage: ReaderStorage | null) {
		super();
		this.attach(storage, false);
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
