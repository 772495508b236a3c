/**
 * Shared pieces of the JSON API (`/api/v1`): the endpoint frame (auth, error mapping), body and
 * query validation, the session and turn operations the routes call, response shapes, and the
 * server-sent event stream.
 */
export { apiEndpoint, type ApiEvent } from './endpoint';
export { ApiError, notFound } from './errors';

export { readJson, parseWith, queryOf, IdString, limitParam } from './body';
export { jsonResponse } from './respond';
export { llmStatus } from './llm-status';
export {
	CreateSessionBody,
	PatchSessionBody,
	ownedSession,
	withSession,
	sessionDto,
	createSession,
	updateSession,
	deleteSession
} from './sessions';
export { PostTurnBody, postTurn, readPlayerTurn, cancelTurn } from './turns';
export { sessionSummaryDto, turnDto, journalEntryDto, documentInfoDto, documentDto } from './dto';
export { openEventStream, SSE_KEEPALIVE_MS, SSE_BATCH } from './sse';
export { recordsView } from './records-view';
export { DocumentEditBody, editDocument } from './panels';
export { UndoBody, RerollBody, postUndo, postReroll, postLoad } from './timetravel';
