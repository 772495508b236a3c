/** The index of play sessions (control DB), each tied to an owner and to its own session database; its members, invitations and turn order. */
export {
	createPlaySession,
	listPlaySessions,
	listAllPlaySessions,
	getPlaySession,
	findPlaySession,
	renamePlaySession,
	deletePlaySession,
	saveDatabases,
	TitleSchema,
	TITLE_MAX,
	type PlaySession,
	type SessionsDeps
} from './index-store';
export { PlaySessionError, PlaySessionNotFoundError, PlaySessionValidationError } from './errors';
export {
	sessionAccess,
	listMemberSessions,
	listMembers,
	removeMember,
	MAX_PLAYERS,
	type SessionAccess,
	type SessionAsMember
} from './members';
export {
	createInvitation,
	revokeInvitation,
	acceptInvitation,
	previewInvitation,
	InvitationError,
	INVITATION_DEFAULT_HOURS,
	INVITATION_MAX_HOURS,
	type CreatedInvitation
} from './invitations';
export {
	roundState,
	setTurnMode,
	setSkipAfter,
	takeTurn,
	skipTurn,
	giveBackTurn,
	keepTurnAfterFailure,
	NotYourTurnError,
	TooEarlyToSkipError,
	MAX_SKIP_AFTER_SECONDS,
	type RoundState
} from './round';
export { membersOf, tableChanged, type TableDeps } from './table';
export { startSession, type StartSessionInput, type StartedSession } from './start';
