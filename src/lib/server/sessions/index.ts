/** The index of play sessions (control DB), each tied to an owner and to its own session database. */
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
export { startSession, type StartSessionInput, type StartedSession } from './start';
