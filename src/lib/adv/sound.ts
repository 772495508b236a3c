/**
 * What the stage can sound like: an ambience that holds from its cue on (like a background), and
 * one-shot effects, both synthesised by the browser (`$lib/sound`), so no audio file or licence is
 * needed. The names are the GM's words in the `adv_stage` tool's `sound` cue. Browser-safe.
 */
import type { PlaceKind } from './place';

export const AMBIENCES = ['rain', 'wind', 'fire', 'crowd', 'sea'] as const;
export type Ambience = (typeof AMBIENCES)[number];
/** The cue's word for silence: the ambience stops. */
export const NO_AMBIENCE = 'none';

export const SOUND_EFFECTS = ['thunder', 'door', 'bell', 'footsteps', 'clash'] as const;
export type SoundEffect = (typeof SOUND_EFFECTS)[number];

/** Every word a `sound` cue takes: an ambience (or `none`) holds, an effect sounds once. One list keeps the GM's tool short. */
export const SOUNDS = [...AMBIENCES, NO_AMBIENCE, ...SOUND_EFFECTS] as const;
export type Sound = (typeof SOUNDS)[number];

/** The `music` cue's words beside a track's name: `none` stops the music, `keep` leaves it playing (a new place's default too). */
export const NO_MUSIC = 'none';
export const KEEP_MUSIC = 'keep';

export function isSoundEffect(sound: Sound): sound is SoundEffect {
	return SOUND_EFFECTS.some((e) => e === sound);
}

/** A place's sound when the GM has not cued one: a room's hearth, a street's crowd, the wind outdoors. */
const PLACE_AMBIENCE: Readonly<Record<PlaceKind, Ambience>> = { interior: 'fire', street: 'crowd', field: 'wind', night: 'wind' };

export function placeAmbience(kind: PlaceKind): Ambience {
	return PLACE_AMBIENCE[kind];
}
