/**
 * The start-up check of the models' contexts (KANTERA_CONTEXT_TOKENS): for every model the server is set to
 * play (the default, the free tier's, and each one a pair names with its provider), what every request
 * carries whatever else gives way must fit what a request may take: the pinned mission (the GM rules and the
 * language rule; a world's behaviour comes on top), the tool schemas, a checkpoint's instruction, the room a
 * checkpoint keeps for its tool rounds and a little for the player's line. A server that could not play a
 * turn or write a checkpoint refuses to start and says why, instead of failing every turn.
 */
import type { Config } from '../config';
import { contextTokensFor } from '../config';
import {
	checkpointInstruction,
	requestBudget,
	requestBytesBound,
	requestTokens,
	summaryLimitNote,
	tokenizerMargin,
	type TokenCounter
} from '../context-window';
import type { ProviderName } from '../llm';
import { composeMission } from '../session-setup';
import { LANGUAGES } from '../../types/settings';
import { toolRoom } from './checkpoint-parts';
import { toolSpecs } from './request';
import type { EngineDeps } from './types';

/** Left for the head, the window and the player's line at the least: a few short lines. */
export const MIN_TURN_ROOM_TOKENS = 256;

/** Every model the configuration plays with, once each. */
function modelsOf(cfg: Pick<Config, 'engine' | 'llm' | 'tiers'>): { provider: ProviderName; model: string }[] {
	if (!cfg.llm.configured) return [];
	const all = [
		{ provider: cfg.llm.provider, model: cfg.llm.model },
		...(cfg.tiers.freeModel ? [cfg.tiers.freeModel] : []),
		...cfg.engine.context.pairs.flatMap((p) => (p.provider ? [{ provider: p.provider, model: p.model }] : []))
	];
	return all.filter((m, i) => all.findIndex((o) => o.provider === m.provider && o.model === m.model) === i);
}

/** What is wrong, one line a model; none when every model fits. */
export function contextProblems(
	cfg: Pick<Config, 'engine' | 'llm' | 'tiers'>,
	toolMap: EngineDeps['tools'],
	count: TokenCounter
): string[] {
	const problems: string[] = [];
	const tools = toolSpecs(toolMap);
	for (const { provider, model } of modelsOf(cfg)) {
		const ownEndpoint = !cfg.llm.configured || cfg.llm[provider].baseUrl === undefined;
		const budget = requestBudget(contextTokensFor(cfg.engine.context, provider, model), tokenizerMargin(provider, model, ownEndpoint));
		const room = toolRoom(budget) + MIN_TURN_ROOM_TOKENS;
		const largest = (texts: string[]) => texts.reduce((a, b) => (b.length > a.length ? b : a), '');
		const request = {
			system: largest(LANGUAGES.map((l) => composeMission(l))),
			messages: [{ role: 'user' as const, content: checkpointInstruction('en', true) + summaryLimitNote(budget.maxOutputTokens) }],
			tools
		};
		// Bytes bound every tokenizer's count: a large context needs no counting.
		if (requestBytesBound(request) + room <= budget.contextTokens - budget.maxOutputTokens) continue;
		const needed = requestTokens(request, count) + room;
		if (needed <= budget.inputTokens) continue;
		problems.push(
			`KANTERA_CONTEXT_TOKENS: ${provider}:${model} has a context of ${budget.contextTokens} tokens; with ${budget.maxOutputTokens} kept ` +
				`for the reply${budget.margin > 1 ? ` and a ${budget.margin}× margin for its tokenizer` : ''}, a request may take ${budget.inputTokens} ` +
				`(o200k), but the GM's rules, the tool schemas and a checkpoint's instruction with room for its tools need ${needed}. ` +
				`Serve the model with a larger context and say so (e.g. KANTERA_CONTEXT_TOKENS=${provider}:${model}=8192).`
		);
	}
	return problems;
}
