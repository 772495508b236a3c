/**
 * Accounts: local users with scrypt passwords, cookie sessions and personal API tokens.
 * Every function takes the app's control database and config (`AuthDeps`; an `App` fits).
 */
export {
	createUser,
	verifyCredentials,
	signupOpen,
	countUsers,
	findUserByName,
	getUserByName,
	getUserById,
	firstAdmin,
	listUsers,
	renameUser,
	setTier,
	hasPassword,
	type AuthUser,
	type AuthDeps,
	type CreateUserInput
} from './users';
export {
	SESSION_COOKIE,
	createCookieSession,
	validateCookieSession,
	deleteCookieSession,
	purgeExpiredCookieSessions,
	sessionCookieOptions,
	type CookieSession,
	type ValidatedSession
} from './cookie-sessions';
export {
	TOKEN_PREFIX,
	createToken,
	expiryFromDays,
	authenticateToken,
	listTokens,
	revokeToken,
	type ApiTokenInfo,
	type CreatedToken
} from './tokens';
export { hashPassword, verifyPassword } from './password';
export { signIn, signUp, type AttemptContext } from './sign-in';
export { ACCOUNT_THROTTLE, ADDRESS_THROTTLE, lockDelayMs, type ThrottlePolicy } from './throttle';
export {
	AuthError,
	InvalidCredentialsError,
	SignInThrottledError,
	SignupDisabledError,
	UsernameTakenError,
	UnknownUserError,
	AuthValidationError,
	InvalidTokenError,
	TokenNotFoundError,
	LocalAccountsDisabledError,
	LastWayInError
} from './errors';
export {
	signInWithProvider,
	linkIdentity,
	unlinkIdentity,
	listIdentities,
	proposeName,
	nameFromHint,
	type LinkedIdentity,
	type ProviderSignIn
} from './identities';
export { startFlow, finishFlow, redirectUriFor, FLOW_COOKIE, type FinishedFlow } from './flow';
export {
	SignInProviders,
	SignInFlowError,
	checkIdToken,
	isLoopback,
	type SignInFlowProblem,
	type ProviderProfile,
	type SignInClient
} from './providers';
export { USERNAME_MIN, USERNAME_MAX, PASSWORD_MIN, PASSWORD_MAX, TOKEN_NAME_MAX, TOKEN_MAX_DAYS, TokenDaysSchema } from './validation';
