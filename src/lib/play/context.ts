/** The play screen's PlayState, handed to its components through Svelte's context. */
import { getContext, setContext } from 'svelte';
import type { PlayState } from './play.svelte';

const PLAY_CONTEXT = Symbol('kantera.play');

export function setPlayContext(play: PlayState): PlayState {
	return setContext(PLAY_CONTEXT, play);
}

/** The context `setPlayContext` gives, for mounting one component on its own (component tests). */
export function playContext(play: PlayState): Map<symbol, unknown> {
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a mount option read once, not state
	return new Map([[PLAY_CONTEXT, play]]);
}

export function getPlayContext(): PlayState {
	const play = getContext<PlayState | undefined>(PLAY_CONTEXT);
	if (!play) throw new Error('The play screen components must be inside the play page (no PlayState in context).');
	return play;
}
