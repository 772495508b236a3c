/** What the turn engine is given and what it hands back, shared by its steps (engine.ts and the modules beside it). */
import type { ResultSet } from '@libsql/client';
import type { ControlDb } from '../db';
import type { Config } from '../config';
import type { Embedder } from '../search';
import type { TokenCounter } from '../context-window';
import type { LlmProvider, ProviderName } from '../llm';
import type { Tool, ToolContext } from '../tools';
import type { TurnFailure } from '../../types/events';
import type { EventBus } from '../events';

export interface EngineDeps {
	config: Pick<Config, 'engine' | 'llm' | 'tiers'>;
	control: ControlDb;
	bus: EventBus;
	embedder: Embedder;
	provider: (name: ProviderName) => LlmProvider;
	tools: ReadonlyMap<string, Tool<ToolContext>>;
	/** Tools whose name may be shown to the player as activity. */
	visibleTools: ReadonlySet<string>;
	countTokens: TokenCounter;
	now?: () => number;
}

export interface TurnOutcome {
	status: 'committed' | 'failed' | 'cancelled';
	reply?: string;
	stopped?: string;
	/** Why a failed turn failed; the details went to the server log under its error id. */
	failure?: TurnFailure;
	/** What the turn's LLM calls used and cost, for its log line and the metrics. */
	spent: TurnSpend;
	/** A player turn's canon guard, when it acted: rewrites it asked for, and whether it stopped the turn. */
	canon?: { rewrites: number; stopped: boolean };
	/** Image orders the commit made this turn's: the image runner has work only when there are some. */
	imageOrders?: number;
	/** The results of the caller's `readAfterCommit`, when the commit ran them in its own batch. */
	readAfterCommit?: ResultSet[];
}

export interface TurnSpend {
	provider: string | undefined;
	model: string | undefined;
	calls: number;
	inputTokens: number;
	cachedInputTokens: number;
	outputTokens: number;
	costMicros: number;
}
