/**
 * The reader's sound settings: whether this browser plays sound at all ("no sound"), a mute that
 * holds the sound without forgetting the volumes, a volume per channel (the music, the place's
 * ambience, the GM's effects, the voices), and voices: off unless turned on, a voice picked per
 * character. Kept in this browser (localStorage), like the reading settings; read through a valibot
 * schema, so a hand-edited or old value falls back to the default field by field.
 */
import * as v from 'valibot';

export const SOUND_CHANNELS = ['music', 'ambience', 'effects', 'voice'] as const;
export type SoundChannel = (typeof SOUND_CHANNELS)[number];
/** The channels Web Audio mixes; the voice is the browser's speech synthesis, at its own volume. */
export type MixedChannel = Exclude<SoundChannel, 'voice'>;

/** Volumes are percents in steps of 5, as the sliders give them. */
export const VOLUME_STEP = 5;
const DEFAULT_VOLUMES: Readonly<Record<SoundChannel, number>> = { music: 60, ambience: 50, effects: 80, voice: 80 };
const STORAGE_KEY = 'kantera.sound';

const Volume = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100));
const StoredSoundSchema = v.object({
	enabled: v.fallback(v.boolean(), true),
	muted: v.fallback(v.boolean(), false),
	music: v.fallback(Volume, DEFAULT_VOLUMES.music),
	ambience: v.fallback(Volume, DEFAULT_VOLUMES.ambience),
	effects: v.fallback(Volume, DEFAULT_VOLUMES.effects),
	voice: v.fallback(Volume, DEFAULT_VOLUMES.voice),
	/** Spoken lines read aloud: off unless the reader turns them on. */
	voices: v.fallback(v.boolean(), false),
	/** The reader's voice per character (by `characterKey`): a voice's URI. */
	picks: v.fallback(v.record(v.pipe(v.string(), v.maxLength(200)), v.pipe(v.string(), v.maxLength(500))), {})
});
export type StoredSound = v.InferOutput<typeof StoredSoundSchema>;

/** What this browser stored, each field checked on its own; anything unreadable is the default. */
export function readStoredSound(raw: string | null): StoredSound {
	let parsed: unknown = {};
	try {
		parsed = raw === null ? {} : JSON.parse(raw);
	} catch {
		// Not JSON (hand-edited): the defaults.
	}
	const result = v.safeParse(StoredSoundSchema, typeof parsed === 'object' && parsed !== null ? parsed : {});
	return result.success ? result.output : v.parse(StoredSoundSchema, {});
}

export interface SoundStorage {
	getItem(key: string): string | null;
	setItem(key: string, value: string): void;
}

export class SoundSettings {
	/** False: "no sound", the page never opens an audio context. */
	enabled = $state(true);
	muted = $state(false);
	volumes = $state<Record<SoundChannel, number>>({ ...DEFAULT_VOLUMES });
	voices = $state(false);
	picks = $state<Record<string, string>>({});
	private storage: SoundStorage | null = null;

	attach(storage: SoundStorage | null): void {
		this.storage = storage;
		const stored = readStoredSound(storage?.getItem(STORAGE_KEY) ?? null);
		this.enabled = stored.enabled;
		this.muted = stored.muted;
		this.volumes = { music: stored.music, ambience: stored.ambience, effects: stored.effects, voice: stored.voice };
		this.voices = stored.voices;
		this.picks = stored.picks;
	}

	/** A channel's gain as the engine sets it: 0..1, nothing while muted. */
	gain(channel: SoundChannel): number {
		return this.muted ? 0 : this.volumes[channel] / 100;
	}

	setEnabled(enabled: boolean): void {
		this.enabled = enabled;
		this.save();
	}

	setVoices(on: boolean): void {
		this.voices = on;
		this.save();
	}

	/** `uri` '' goes back to the voice chosen for the character by default. */
	pickVoice(character: string, uri: string): void {
		const { [character]: _old, ...rest } = this.picks;
		this.picks = uri === '' ? rest : { ...rest, [character]: uri };
		this.save();
	}

	setMuted(muted: boolean): void {
		this.muted = muted;
		this.save();
	}

	setVolume(channel: SoundChannel, percent: number): void {
		if (!Number.isFinite(percent)) return;
		this.volumes = { ...this.volumes, [channel]: Math.round(Math.min(100, Math.max(0, percent)) / VOLUME_STEP) * VOLUME_STEP };
		this.save();
	}

	private save(): void {
		try {
			const { enabled, muted, voices, picks } = this;
			this.storage?.setItem(STORAGE_KEY, JSON.stringify({ enabled, muted, voices, picks, ...this.volumes }));
		} catch {
			// Storage full or blocked (private mode): the setting still holds for this page.
		}
	}
}
