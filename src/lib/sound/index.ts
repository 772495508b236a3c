/**
 * The play screen's sound, browser side: the reader's sound settings (in every page's first load,
 * small) and the context that shares them. The synthesiser itself (`./engine`) is imported
 * dynamically on the reader's first interaction, never from here: it must stay out of the first load.
 */
import { getContext, setContext } from 'svelte';
import { SoundSettings } from './settings.svelte';

export {
	SoundSettings,
	SOUND_CHANNELS,
	VOLUME_STEP,
	readStoredSound,
	type SoundChannel,
	type MixedChannel,
	type StoredSound
} from './settings.svelte';
export type { SoundEngine, SoundSnapshot, LoopChoice } from './engine';

const SOUND_CONTEXT = Symbol('kantera.sound');

export function setSoundContext(settings: SoundSettings): SoundSettings {
	return setContext(SOUND_CONTEXT, settings);
}

export function getSoundContext(): SoundSettings {
	const settings = getContext<SoundSettings | undefined>(SOUND_CONTEXT);
	if (!settings) throw new Error('The sound components must be inside the play screen (no SoundSettings in context).');
	return settings;
}
