/**
 * What a GM tool handler may touch. Handlers never see the database directly: reads and writes go
 * through the turn's staging, so reads see the turn's own writes and nothing is saved unless the
 * whole turn commits.
 */
import type { SessionExec, StagedWrite } from '../db';
import type { Embedder } from '../search';
import type { Rng } from './dice';
import type { StageCue } from '../../adv';
import type { Language } from '../../types/settings';
import type { StagedPlace } from '../../types/events';

export interface ToolContext {
	read<T>(fn: (exec: SessionExec) => Promise<T>): Promise<T>;
	/** A write in a transaction (it may read first), or a planned one (it reads nothing: no round trip). */
	write<T>(w: StagedWrite<T>): Promise<T>;
	embedder: Embedder;
	language: Language;
	/** Dice RNG; the cryptographic one unless a test injects another. */
	rng?: Rng | undefined;
	/** Stage cues collected during the turn, committed with the GM's message: the shape the stage stores and the screen plays. */
	cues: StageCue[];
	/** Places registered during the turn (set_scene), so the screen can draw them while the reply streams. */
	places: StagedPlace[];
	/** What the GM offers the player to say next (adv_stage `choices`), the latest call's; empty for none. */
	choices: string[];
}
