/**
 * The reader's settings: text speed, auto mode and its delay, the text window's opacity, the text
 * size, and reduced motion. Kept in this browser (localStorage), not in the session: they are about
 * how this person reads, on this device. Sizes and opacities are steps, so the screen applies them
 * with classes (no inline styles).
 */
import { DEFAULT_AUTO_DELAY_MS, DEFAULT_CHARS_PER_SECOND, MAX_AUTO_DELAY_MS } from '../adv';

/** The speeds offered, in graphemes per second; 0 shows each paragraph at once. */
const TEXT_SPEEDS = { slow: 20, normal: DEFAULT_CHARS_PER_SECOND, fast: 80, instant: 0 } as const;
export type TextSpeed = keyof typeof TEXT_SPEEDS;
export const TEXT_SPEED_NAMES: readonly TextSpeed[] = ['slow', 'normal', 'fast', 'instant'];

/** Text window opacity, in percent: from see-through to solid. */
export const WINDOW_OPACITIES = [40, 60, 80, 90, 100] as const;
export type WindowOpacity = (typeof WINDOW_OPACITIES)[number];
const DEFAULT_WINDOW_OPACITY: WindowOpacity = 80;

export const TEXT_SIZES = ['small', 'normal', 'large', 'huge'] as const;
export type TextSize = (typeof TEXT_SIZES)[number];

/** Reduced motion: follow the system's setting, or choose. */
export const MOTION_CHOICES = ['system', 'reduced', 'full'] as const;
export type MotionChoice = (typeof MOTION_CHOICES)[number];

/** The auto-mode delay slider: half a second to ten seconds. */
export const AUTO_DELAY_MIN_MS = 500;
export const AUTO_DELAY_MAX_MS = Math.min(10_000, MAX_AUTO_DELAY_MS);
export const AUTO_DELAY_STEP_MS = 500;

const STORAGE_KEY = 'kantera.reader';

const oneOf =
	<T extends string | number>(values: readonly T[]) =>
	(value: unknown): value is T =>
		values.some((v) => v === value);

export const isTextSpeed = oneOf(TEXT_SPEED_NAMES);
const isWindowOpacity = oneOf(WINDOW_OPACITIES);
export const isTextSize = oneOf(TEXT_SIZES);
export const isMotionChoice = oneOf(MOTION_CHOICES);

/** Minimal storage surface, so tests can pass a Map-backed one. */
export interface SettingsStorage {
	getItem(key: string): string | null;
	setItem(key: string, value: string): void;
}

export interface StoredSettings {
	speed: TextSpeed;
	auto: boolean;
	autoDelayMs: number;
	windowOpacity: WindowOpacity;
	textSize: TextSize;
	motion: MotionChoice;
}

/** Reads stored settings defensively: a hand-edited or old value falls back to the default. */
export function readStoredSettings(raw: string | null, reducedMotion: boolean): StoredSettings {
	// Someone who asked the system for less motion gets the text at once unless they choose otherwise.
	const fallback: StoredSettings = {
		speed: reducedMotion ? 'instant' : 'normal',
		auto: false,
		autoDelayMs: DEFAULT_AUTO_DELAY_MS,
		windowOpacity: DEFAULT_WINDOW_OPACITY,
		textSize: 'normal',
		motion: 'system'
	};
	if (raw === null) return fallback;
	try {
		const parsed: unknown = JSON.parse(raw);
		if (typeof parsed !== 'object' || parsed === null) return fallback;
		const o: Record<string, unknown> = { ...parsed };
		const delay = o.autoDelayMs;
		return {
			speed: isTextSpeed(o.speed) ? o.speed : fallback.speed,
			auto: typeof o.auto === 'boolean' ? o.auto : fallback.auto,
			autoDelayMs:
				typeof delay === 'number' && Number.isFinite(delay) && delay >= 0 && delay <= MAX_AUTO_DELAY_MS ? delay : fallback.autoDelayMs,
			windowOpacity: isWindowOpacity(o.windowOpacity) ? o.windowOpacity : fallback.windowOpacity,
			textSize: isTextSize(o.textSize) ? o.textSize : fallback.textSize,
			motion: isMotionChoice(o.motion) ? o.motion : fallback.motion
		};
	} catch {
		return fallback;
	}
}

export class ReaderSettings {
	speed = $state<TextSpeed>('normal');
	auto = $state(false);
	autoDelayMs = $state(DEFAULT_AUTO_DELAY_MS);
	windowOpacity = $state<WindowOpacity>(DEFAULT_WINDOW_OPACITY);
	textSize = $state<TextSize>('normal');
	motion = $state<MotionChoice>('system');
	/** What the system asks for (prefers-reduced-motion), for the `system` choice. */
	systemReducedMotion = $state(false);
	readonly charsPerSecond = $derived(TEXT_SPEEDS[this.speed]);
	/** Transitions are cut to nothing: the reader's choice, or the system's. */
	readonly reducedMotion = $derived(this.motion === 'reduced' || (this.motion === 'system' && this.systemReducedMotion));

	private storage: SettingsStorage | null = null;

	/** Loads what this browser stored, and stores changes there from now on (browser only). */
	attach(storage: SettingsStorage | null, reducedMotion: boolean): void {
		this.storage = storage;
		this.systemReducedMotion = reducedMotion;
		const stored = readStoredSettings(this.storage?.getItem(STORAGE_KEY) ?? null, reducedMotion);
		this.speed = stored.speed;
		this.auto = stored.auto;
		this.autoDelayMs = stored.autoDelayMs;
		this.windowOpacity = stored.windowOpacity;
		this.textSize = stored.textSize;
		this.motion = stored.motion;
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

	setWindowOpacity(opacity: WindowOpacity): void {
		this.windowOpacity = opacity;
		this.save();
	}

	setTextSize(size: TextSize): void {
		this.textSize = size;
		this.save();
	}

	setMotion(motion: MotionChoice): void {
		this.motion = motion;
		this.save();
	}

	private save(): void {
		try {
			const { speed, auto, autoDelayMs, windowOpacity, textSize, motion } = this;
			this.storage?.setItem(STORAGE_KEY, JSON.stringify({ speed, auto, autoDelayMs, windowOpacity, textSize, motion }));
		} catch {
			// Storage full or blocked (private mode): the setting still holds for this page.
		}
	}
}
