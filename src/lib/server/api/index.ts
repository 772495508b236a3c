/**
 * Shared pieces of the JSON API (`/api/v1`): the endpoint frame (auth, error mapping), body and
 * query validation, the session and turn operations the routes call, response shapes. The
 * server-sent event stream is the event log's (`../events`).
 */
export { apiEndpoint, type ApiContext, type ApiEvent } from './endpoint';
export { ApiError, badRequest, notFound } from './errors';
export { toErrorResponse, retryAfterSeconds } from './error-map';
export { readJson, parseWith, queryOf, IdString, limitParam } from './body';
export { jsonResponse, errorResponse, NO_STORE } from './respond';
export { llmStatus, providerProblem } from './llm-status';
export {
	CreateSessionBody,
	PatchSessionBody,
	ModelSchema,
	DEFAULT_TITLE,
	chooseLlm,
	ownedSession,
	withSession,
	sessionDto,
	createSession,
	updateSession,
	deleteSession
} from './sessions';
export { PostTurnBody, postTurn, playerTurn, readPlayerTurn, cancelTurn, type PostedTurn } from './turns';
export { sessionSummaryDto, turnDto, journalEntryDto, documentInfoDto, documentDto } from './dto';
export { recordsView } from './records-view';
export { DocumentEditBody, editDocument, documentIdParam } from './panels';
export { UndoBody, RerollBody, postUndo, postReroll, postLoad } from './timetravel';
