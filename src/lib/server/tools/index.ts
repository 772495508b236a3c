/**
 * Tools: the fifteen GM tools as schema contracts (seed 001), and the running of one tool call from
 * the model so that nothing it sends can crash the turn. The turn engine builds a ToolContext over
 * its staging and calls `runToolCall(gmToolMap(), call, ctx)`; providers get each tool's
 * `name`, `description` and `parameters` (JSON Schema).
 */
import type { Tool } from './define';
import type { ToolContext } from './context';
import { toolMap } from './run';
import { GM_TOOLS } from './gm';

export { GM_TOOLS, PLAYER_VISIBLE_TOOL_ACTIVITY } from './gm';
export type { ToolContext } from './context';
export { type Tool } from './define';
export { runToolCall, parseArguments, type ToolResult } from './run';
export { type Rng } from './dice';

/** The GM tools by name, for runToolCall. A fresh map per call: nothing module-level is shared mutable. */
export function gmToolMap(): ReadonlyMap<string, Tool<ToolContext>> {
	return toolMap(GM_TOOLS);
}
