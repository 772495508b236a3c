/**
 * The JSON shapes of REST API v1 (`/api/v1`), shared by the server routes and any client code.
 * Times are ISO 8601 strings. Errors are always `ApiErrorBody`.
 */
import type { TurnStatus } from './events';
import type { ContentIssueDto } from './presets';

export type Language = 'ja' | 'en';
export type ProviderName = 'openai' | 'anthropic';

export interface ApiErrorBody {
	message: string;
	/** Stable, upper snake case: what a client branches on. */
	code: string;
	/** LLM_NOT_CONFIGURED: what the operator must set. */
	hint?: string;
	/** QUOTA_EXCEEDED: when the daily quota refills; PUBLISH_RATE_LIMITED: when the next publication is allowed. */
	resetsAt?: string;
	/** INVALID_PRESET: every problem of the preset, on its field (see ./presets). */
	issues?: ContentIssueDto[];
}

/** Whether turns can be played at all on this server (item 9: say plainly when no LLM is configured). */
export type LlmStatusDto = { configured: true; provider: ProviderName; model: string } | { configured: false; hint: string };

export interface StatusDto {
	llm: LlmStatusDto;
}

export interface SessionSummaryDto {
	id: string;
	title: string;
	language: Language;
	createdAt: string;
	updatedAt: string;
}

export interface SessionDto extends SessionSummaryDto {
	/** The LLM this session's turns use; undefined while the server has none configured. */
	provider: ProviderName | undefined;
	model: string | undefined;
	/** The newest event id: pass it as `?lastEventId=` to the events stream to miss nothing after this read. */
	lastEventId: number;
	llm: LlmStatusDto;
	/**
	 * Set when a PATCH changed the provider/model of a session with history: the current model first
	 * writes a hand-off summary in this turn, and `provider`/`model` change when it commits.
	 */
	handoffTurnId?: string;
}

export interface AcceptedTurnDto {
	turnId: string;
	status: TurnStatus;
}

export interface TurnDto {
	turnId: string;
	status: TurnStatus;
	input: string;
	/** Present once the turn is committed. */
	reply?: { text: string };
	/** Why a failed, interrupted or cancelled turn ended. */
	error?: string;
	/** Why a committed turn ended early (`round_cap`, `budget:<scope>`). */
	stopped?: string;
	/** A cancel was asked for and the runner has not stopped yet. */
	cancelRequested: boolean;
	createdAt: string;
	finishedAt?: string;
}

export interface MessageDto {
	id: number;
	role: 'player' | 'gm' | 'operator' | 'system';
	speaker: string | null;
	body: string;
	turnId: string | null;
	createdAt: string;
}

export interface MessagesPageDto {
	messages: MessageDto[];
	/** Pass as `?before=` for the previous page; absent when this page reaches the start. */
	nextBefore?: number;
}

export interface JournalEntryDto {
	id: number;
	body: string;
	createdAt: string;
}

export interface StateDto {
	state: Record<string, unknown>;
	version: number;
}

export interface DocumentInfoDto {
	id: number;
	title: string;
	createdAt: string;
	updatedAt: string;
	/** Another author's world: the player sees this document's name only (its body is for the GM). */
	sealed?: true;
}

export interface DocumentDto extends DocumentInfoDto {
	body: string;
}
