/**
 * What a GM tool handler may touch. Handlers never see the database directly: reads and writes go
 * through the turn's staging, so reads see the turn's own writes and nothing is saved unless the
 * whole turn commits.
 */
import type { SessionExec, SessionTx } from '../db';
import type { Embedder } from '../search';
import type { Rng } from './dice';

/** One ADV stage cue, tied to a paragraph of the GM's reply; played after the reply completes. */
export interface AdvCue {
	/** 0-based paragraph of the reply before which the cue plays. */
	paragraph: number;
	action: 'enter' | 'exit' | 'move' | 'expression' | 'background';
	character?: string | undefined;
	slot?: 'left' | 'center' | 'right' | undefined;
	expression?: string | undefined;
	scene?: string | undefined;
}

export interface ToolContext {
	read<T>(fn: (exec: SessionExec) => Promise<T>): Promise<T>;
	write<T>(fn: (tx: SessionTx) => Promise<T>): Promise<T>;
	embedder: Embedder;
	language: 'ja' | 'en';
	/** Dice RNG; the cryptographic one unless a test injects another. */
	rng?: Rng | undefined;
	/** Stage cues collected during the turn; committed with the GM's message. */
	cues: AdvCue[];
}
