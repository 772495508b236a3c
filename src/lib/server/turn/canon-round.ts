/**
 * The canon guard's part in the tool loop (issue 27): a reply withdrawn before the player saw it (the
 * screen is told to take back what that reply showed, and the GM is asked once to write it again), the
 * story's reveals picked up as the GM stages them, and what a call the guard cut short is metered at.
 */
import { story } from '../records';
import { estimateTokens } from '../context-window';
import type { TurnCanon } from '../canon';
import type { LlmRequest, LlmUsage } from '../llm';
import type { ToolContext } from '../tools';
import type { CanonHit } from '../../canon';
import type { ToolLoop } from './tool-loop';

/**
 * The reply hit a term: counted (the turn's second throws CanonStoppedError, and the turn ends with
 * nothing recorded), what it showed is withdrawn on screen, and the GM is told why and asked to write it again.
 */
export async function reconsider(l: ToolLoop, canon: TurnCanon, hit: CanonHit): Promise<void> {
	const { stays, note } = canon.withdraw(hit);
	await l.emit({ type: 'text.withdrawn', turnId: l.turn.id, text: stays });
	l.prompt.parts.turn.push({ role: 'user', content: note });
}

/** The GM revealed something this turn (staged): its secret's markers may be written from now on. */
export async function refreshRevealed(canon: TurnCanon, toolCtx: Pick<ToolContext, 'read'>): Promise<void> {
	const rows = await toolCtx.read((exec) => story.revealedKeysQuery(exec));
	canon.refresh(new Set(rows.map((r) => r.key)));
}

/**
 * What a call cut short by the guard is metered at: vendors report usage at the end of a stream, which
 * it never reached, so the request and the text received are counted with the dependency-free estimate
 * (which errs high).
 */
export function estimatedUsage(request: Pick<LlmRequest, 'system' | 'messages' | 'tools'>, received: string): LlmUsage {
	const input = request.system + JSON.stringify(request.messages) + JSON.stringify(request.tools);
	return { inputTokens: estimateTokens(input), outputTokens: estimateTokens(received), cachedInputTokens: 0 };
}
