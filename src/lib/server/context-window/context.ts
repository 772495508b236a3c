/**
 * Builds what the GM sees, in a fixed order: pinned mission → latest hand-off summary → documents'
 * table of contents + state + recent journal (+ the opening scene, on the first turn) → the last N
 * exchanges (after a checkpoint, the last one or two from before it: see CARRY_EXCHANGES) → the
 * player's input.
 *
 * The mission is its own field and goes first, verbatim, in every request: nothing here truncates,
 * compacts or summarises it. Everything after it is rebuilt from records on every turn, which is
 * what lets a campaign outlive any context window.
 */
import type { Exchange } from './exchanges';

export interface RecordsHead {
	/** The latest checkpoint hand-off summary, if any. */
	summary?: string | undefined;
	/** Documents' table of contents: one heading path per line. */
	toc: readonly string[];
	state: unknown;
	/** The state sheet was left out to fit the model's context (context-window/fit.ts): the GM reads it with get_state. */
	stateLeftOut?: boolean | undefined;
	/** Recent journal entries, oldest first. */
	journal: readonly string[];
	/**
	 * The opening the player has just been shown (the prologue and who stands where), given only
	 * until the first exchange: the first reply continues from it instead of starting over.
	 */
	opening?: string | undefined;
	/** Where the stage stands now (background, who stands where), given on every turn. */
	stage?: string | undefined;
	/** Document sections the author marked always-on (a lorebook's constant entries), given on every turn. */
	always?: string | undefined;
	/** Who plays at the table and whose turn it is, when several players share the session (session-setup/table.ts). */
	table?: string | undefined;
}

export interface ContextMessage {
	role: 'user' | 'assistant';
	content: string;
}

export interface BuiltContext {
	/** The pinned mission, byte for byte. */
	mission: string;
	/** Records head rendered as text; sent right after the mission. */
	head: string;
	messages: ContextMessage[];
}

/** Separates the mission from the records head inside the system field. */
export const MISSION_SEPARATOR = '\n\n=== RECORDS (rebuilt every turn; the records are the truth) ===\n';

const STATE_LEFT_OUT = "(left out to fit the model's context: get_state reads it)";

export function renderHead(h: RecordsHead): string {
	const parts: string[] = [];
	if (h.table?.trim()) parts.push('## At the table (several players share this story)', h.table.trim());
	parts.push('## Latest hand-off summary', h.summary?.trim() ? h.summary.trim() : '(none yet: this is the start of the campaign)');
	parts.push(
		'## Documents (table of contents; read sections with read_document or recall)',
		h.toc.length ? h.toc.map((line) => `- ${line}`).join('\n') : '(no documents)'
	);
	parts.push('## State', h.stateLeftOut ? STATE_LEFT_OUT : '```json\n' + JSON.stringify(h.state ?? {}, null, 2) + '\n```');
	if (h.always?.trim()) parts.push('## Always in mind (world lore the author keeps in every context)', h.always.trim());
	parts.push('## Recent journal', h.journal.length ? h.journal.map((j) => `- ${j}`).join('\n') : '(empty)');
	if (h.opening?.trim())
		parts.push('## Opening scene (the player has just read this on screen; continue from it, do not retell it)', h.opening.trim());
	if (h.stage?.trim()) parts.push('## Stage (what the player sees now; adv_stage and set_scene change it)', h.stage.trim());
	return parts.join('\n\n');
}

/** The system text: the mission verbatim, then the records head. */
export function systemText(ctx: Pick<BuiltContext, 'mission' | 'head'>): string {
	return ctx.mission + MISSION_SEPARATOR + ctx.head;
}

export function buildContext(mission: string, head: RecordsHead, window: readonly Exchange[], input: string): BuiltContext {
	const messages: ContextMessage[] = [];
	for (const ex of window) {
		messages.push({ role: 'user', content: ex.player }, { role: 'assistant', content: ex.gm });
	}
	messages.push({ role: 'user', content: input });
	return { mission, head: renderHead(head), messages };
}
