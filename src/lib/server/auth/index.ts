/**
 * Accounts: local users with scrypt passwords, cookie sessions and personal API tokens.
 * Every function takes the app's control database and config (`AuthDeps`; an `App` fits).
 */
export {
	createUser,
	verifyCredentials,
	signupOpen,
	getUserByName,
	firstAdmin,
	listUsers,
	renameUser,
	setTier,
	hasPassword,
	getUserById,
	listAccounts,
	type AccountRow,
	type AuthUser
} from './users';
export {
	setSuspended,
	revokeSignIns,
	deleteUserRow,
	createPasswordReset,
	passwordResetUser,
	resetPassword,
	PASSWORD_RESET_HOURS
} from './accounts';
export { SESSION_COOKIE, createCookieSession, validateCookieSession, deleteCookieSession, sessionCookieOptions } from './cookie-sessions';
export { createToken, expiryFromDays, authenticateToken, listTokens, revokeToken } from './tokens';
export { hashPassword, verifyPassword } from './password';
export { signIn, signUp } from './sign-in';
export { ACCOUNT_THROTTLE, ADDRESS_THROTTLE, lockDelayMs } from './throttle';
export {
	AuthError,
	AccountSuspendedError,
	InvalidCredentialsError,
	SignInThrottledError,
	SignupDisabledError,
	UsernameTakenError,
	AuthValidationError,
	InvalidTokenError,
	TokenNotFoundError,
	LocalAccountsDisabledError,
	LastWayInError
} from './errors';
export { signInWithProvider, linkIdentity, unlinkIdentity, listIdentities, proposeName, nameFromHint } from './identities';
export { startFlow, finishFlow } from './flow';
export { SignInProviders, SignInFlowError, checkIdToken, type SignInFlowProblem, type ProviderProfile } from './providers';
export { TOKEN_NAME_MAX } from './validation';
export { randomSecret, sha256Hex } from './secrets';
export { authErrorText } from './messages';
export { showsMature, setShowMature } from './preferences';
