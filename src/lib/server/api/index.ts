/**
 * Shared pieces of the JSON API (`/api/v1`): the endpoint frame (auth, error mapping), body and
 * query validation, the session and turn operations the routes call, response shapes. The
 * server-sent event stream is the event log's (`../events`).
 */
export { apiEndpoint, requireApiUser, type ApiEvent } from './endpoint';
export { ApiError, badRequest, notFound } from './errors';

export { readJson, parseWith, queryOf, IdString, limitParam } from './body';
export { jsonResponse, errorResponse } from './respond';
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
export {
	CreateInvitationBody,
	AcceptInvitationBody,
	PassBody,
	membersFor,
	inviteTo,
	uninvite,
	acceptInvite,
	dropMember,
	passTurn
} from './members';
export { sessionFor, type SessionNeed } from './access';
export { PostTurnBody, postTurn, readPlayerTurn, cancelTurn } from './turns';
export { sessionSummaryDto, turnDto, journalEntryDto, documentInfoDto, documentDto } from './dto';
export { recordsView } from './records-view';
export { BacklogQuery, MessagesQuery, JournalRecentQuery, journalRecent, DocumentEditBody, documentIdParam, editDocument } from './panels';
export { PresetBody, VisibilityBody, ReportBody, readImportFile } from './presets';
export {
	UndoBody,
	RerollBody,
	postUndo,
	postReroll,
	postLoad,
	postAlternative,
	getAlternatives,
	postChooseAlternative
} from './timetravel';
export {
	adminSetTier,
	adminSuspend,
	adminRevokeSignIns,
	adminPasswordReset,
	adminDeleteAccount,
	adminTakeDown,
	adminLiftTakedown,
	adminDismissReports,
	AdminActError,
	OPERATOR,
	type AdminActor,
	listAccounts,
	type AccountRow
} from './admin';
export { putArtResponse, deleteArtResponse, putAudioResponse, deleteAudioResponse } from './art';
