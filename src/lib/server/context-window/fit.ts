/**
 * Fits a request within the model's context. Nothing gives way while it fits; past that, in this order:
 * 1. the window's old exchanges, oldest first;
 * 2. record excerpts of the head: journal entries (oldest first), lines of the documents' table of contents
 *    (from the end), the opening scene, lines of the hand-off summary (from the end; never in a checkpoint
 *    request, whose reply replaces it), the state sheet, the stage; each section that lost something says so
 *    and which tool reads it;
 * 3. the window's thread: the exchanges carried over the last checkpoint and the newest exchange (the line the
 *    player is answering), oldest first;
 * 4. the results of the turn's earlier tool calls, oldest first, each replaced by a note.
 * The mission never gives way, nor the turn's input and its tool calls. What still does not fit is an error
 * (ContextTooSmallError) the turn fails with: an input longer than the model can read.
 *
 * Planning goes by each part's own count; the request as rendered is then counted whole, and if joining the
 * parts came out larger, more gives way.
 */
import type { LlmMessage, LlmToolSpec } from '../llm';
import type { Exchange } from './exchanges';
import { renderHead, systemText, type RecordsHead } from './context';
import type { RequestBudget } from './budget';
import type { TokenCounter } from './policy';
import { messageTokens, requestBytesBound, requestTokens } from './measure';

/** What a request is built from. */
export interface RequestParts {
	mission: string;
	head: RecordsHead;
	/** The window, oldest first (windowOf). */
	window: readonly Exchange[];
	/** The turn's own messages: the player's input (or a checkpoint's history and instruction), then its tool rounds. */
	turn: readonly LlmMessage[];
	tools: LlmToolSpec[];
	/** A checkpoint request: the hand-off summary in the head is carried forward whole (the reply replaces it). */
	keepSummary?: boolean;
}

export interface GaveWay {
	exchanges: number;
	excerpts: number;
	thread: number;
	toolResults: number;
}

export interface FittedRequest {
	system: string;
	/** How many leading characters of `system` never change (the mission). */
	stableSystemChars: number;
	messages: LlmMessage[];
	/** The request's o200k tokens as counted; undefined when its bytes alone showed that it fits. */
	tokens: number | undefined;
	gaveWay: GaveWay;
}

export class ContextTooSmallError extends Error {
	constructor(
		readonly needed: number,
		readonly budget: RequestBudget
	) {
		super(
			`The request needs at least ${needed} tokens, but this model's context of ${budget.contextTokens} tokens ` +
				`(${budget.maxOutputTokens} of them kept for the reply) leaves ${budget.inputTokens}: the input is too long for it. ` +
				`Write a shorter line, or play on a model with a larger context (KANTERA_CONTEXT_TOKENS).`
		);
		this.name = 'ContextTooSmallError';
	}
}

const TOOL_RESULT_LEFT_OUT = "[left out to fit the model's context: call the tool again if you need this]";
const SUMMARY_CUT = "(the rest of this summary was left out to fit the model's context: recall searches the summaries)";
/** How many times the rendered request may come out larger than planned before the fit gives up. */
const MAX_REPLANS = 8;

type Excerpt = { kind: 'journal' | 'toc' | 'summary'; index: number } | { kind: 'opening' | 'state' | 'stage' };

/** The head's excerpts in the order they give way. */
function excerptsOf(head: RecordsHead, keepSummary: boolean): Excerpt[] {
	const out: Excerpt[] = head.journal.map((_, index) => ({ kind: 'journal' as const, index }));
	for (let index = head.toc.length - 1; index >= 0; index--) out.push({ kind: 'toc', index });
	if (head.opening?.trim()) out.push({ kind: 'opening' });
	const summaryLines = head.summary?.trim() ? head.summary.trim().split('\n') : [];
	// The first line stays: a summary cut to nothing would read as "no summary yet".
	if (!keepSummary) for (let index = summaryLines.length - 1; index >= 1; index--) out.push({ kind: 'summary', index });
	out.push({ kind: 'state' });
	if (head.stage?.trim()) out.push({ kind: 'stage' });
	return out;
}

function excerptText(head: RecordsHead, e: Excerpt): string {
	switch (e.kind) {
		case 'journal':
			return `- ${head.journal[e.index] ?? ''}\n`;
		case 'toc':
			return `- ${head.toc[e.index] ?? ''}\n`;
		case 'summary':
			return `${head.summary?.trim().split('\n')[e.index] ?? ''}\n`;
		case 'opening':
			return head.opening ?? '';
		case 'state':
			return JSON.stringify(head.state ?? {}, null, 2);
		case 'stage':
			return head.stage ?? '';
	}
}

/** The head with the given excerpts left out, each section saying what it lost. */
function trimmedHead(head: RecordsHead, out: readonly Excerpt[]): RecordsHead {
	const gone = (kind: Excerpt['kind']) => out.filter((e) => e.kind === kind);
	const index = (kind: Excerpt['kind']) => new Set(gone(kind).map((e) => ('index' in e ? e.index : -1)));
	const journalOut = index('journal');
	const tocOut = index('toc');
	const summaryOut = index('summary');
	const journal = head.journal.filter((_, i) => !journalOut.has(i));
	const toc = head.toc.filter((_, i) => !tocOut.has(i));
	const lines = head.summary?.trim().split('\n') ?? [];
	return {
		...head,
		summary: summaryOut.size ? [...lines.filter((_, i) => !summaryOut.has(i)), SUMMARY_CUT].join('\n') : head.summary,
		journal: journalOut.size
			? [`(${journalOut.size} older entries left out to fit the model's context: journal_read reads them)`, ...journal]
			: head.journal,
		toc: tocOut.size
			? [...toc, `(${tocOut.size} more lines left out to fit the model's context: recall and read_document find them)`]
			: head.toc,
		opening: gone('opening').length ? undefined : head.opening,
		stateLeftOut: gone('state').length > 0 || head.stateLeftOut,
		stage: gone('stage').length ? undefined : head.stage
	};
}

function exchangeMessages(window: readonly Exchange[]): LlmMessage[] {
	return window.flatMap((ex): LlmMessage[] => [
		{ role: 'user', content: ex.player },
		{ role: 'assistant', content: ex.gm }
	]);
}

function render(parts: RequestParts, keep: { window: readonly Exchange[]; excerptsOut: readonly Excerpt[]; turn: readonly LlmMessage[] }) {
	const head = keep.excerptsOut.length ? trimmedHead(parts.head, keep.excerptsOut) : parts.head;
	return {
		system: systemText({ mission: parts.mission, head: renderHead(head) }),
		messages: [...exchangeMessages(keep.window), ...keep.turn],
		tools: parts.tools
	};
}

export function fitRequest(parts: RequestParts, budget: RequestBudget, count: TokenCounter): FittedRequest {
	const none: GaveWay = { exchanges: 0, excerpts: 0, thread: 0, toolResults: 0 };
	const full = render(parts, { window: parts.window, excerptsOut: [], turn: parts.turn });
	const fitted = (r: typeof full, tokens: number | undefined, gaveWay: GaveWay): FittedRequest => ({
		system: r.system,
		stableSystemChars: parts.mission.length,
		messages: r.messages,
		tokens,
		gaveWay
	});
	// Every token is at least a byte, in the model's own tokenizer too: no margin needed here.
	if (requestBytesBound(full) <= budget.contextTokens - budget.maxOutputTokens) return fitted(full, undefined, none);

	const fullTokens = requestTokens(full, count);
	if (fullTokens <= budget.inputTokens) return fitted(full, fullTokens, none);

	// The order things give way in, each with what leaving it out saves (by its own count).
	const last = parts.window.length - 1;
	const isThread = (ex: Exchange, i: number) => ex.carried === true || i === last;
	const pairTokens = (ex: Exchange) =>
		messageTokens({ role: 'user', content: ex.player }, count) + messageTokens({ role: 'assistant', content: ex.gm }, count);
	type Step = { saves: number; apply: () => void };
	const window = new Set(parts.window.map((_, i) => i));
	const excerptsOut: Excerpt[] = [];
	const turn = [...parts.turn];
	const gaveWay = { ...none };
	const steps: Step[] = [];
	parts.window.forEach((ex, i) => {
		if (!isThread(ex, i)) steps.push({ saves: pairTokens(ex), apply: () => (window.delete(i), gaveWay.exchanges++) });
	});
	for (const e of excerptsOf(parts.head, parts.keepSummary === true))
		steps.push({ saves: count(excerptText(parts.head, e)), apply: () => (excerptsOut.push(e), gaveWay.excerpts++) });
	parts.window.forEach((ex, i) => {
		if (isThread(ex, i)) steps.push({ saves: pairTokens(ex), apply: () => (window.delete(i), gaveWay.thread++) });
	});
	// The input (the first message) stays; results of earlier rounds may go, oldest first.
	turn.forEach((m, i) => {
		if (m.role !== 'tool' || i === 0) return;
		const note: LlmMessage = { ...m, content: TOOL_RESULT_LEFT_OUT };
		steps.push({ saves: messageTokens(m, count) - messageTokens(note, count), apply: () => ((turn[i] = note), gaveWay.toolResults++) });
	});

	let estimate = fullTokens;
	let target = budget.inputTokens;
	let next = 0;
	for (let replans = 0; replans <= MAX_REPLANS; replans++) {
		while (estimate > target && next < steps.length) {
			const step = steps[next++];
			if (!step) break;
			step.apply();
			estimate -= step.saves;
		}
		const r = render(parts, { window: parts.window.filter((_, i) => window.has(i)), excerptsOut, turn });
		const tokens = requestTokens(r, count);
		if (tokens <= budget.inputTokens) return fitted(r, tokens, gaveWay);
		if (next >= steps.length) throw new ContextTooSmallError(Math.ceil(tokens * budget.margin) + budget.maxOutputTokens, budget);
		// Joined, the parts came out larger than their counts added up (the notes, the framing): aim lower.
		target -= tokens - budget.inputTokens;
		estimate = tokens;
	}
	throw new ContextTooSmallError(Math.ceil(estimate * budget.margin) + budget.maxOutputTokens, budget);
}
