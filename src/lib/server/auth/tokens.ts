/**
 * Personal API tokens for `Authorization: Bearer`. The plaintext (`kt_…`) is returned once at creation;
 * only its SHA-256 is stored.
 */
import { and, eq, desc } from 'drizzle-orm';
import * as v from 'valibot';
import { controlSchema, newId } from '../db';
import { randomSecret, sha256Hex } from './secrets';
import { AuthValidationError, InvalidTokenError, TokenNotFoundError } from './errors';
import { TokenNameSchema, TokenDaysSchema, parseField } from './validation';
import { activeUserById, type AuthDeps, type AuthUser } from './users';
import { translate } from '../../i18n/all-languages';
import type { Language } from '../../types/settings';

const { apiTokens } = controlSchema;

/** Recognisable in logs and secret scanners, and tells a Bearer token from a cookie token. */
const TOKEN_PREFIX = 'kt_';
const TOKEN_PATTERN = /^kt_[A-Za-z0-9_-]{43}$/;
/** last_used_at is a hint for the owner, not an audit log: minute resolution avoids a write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface ApiTokenInfo {
	id: string;
	name: string;
	createdAt: Date;
	expiresAt: Date | null;
	lastUsedAt: Date | null;
}

export interface CreatedToken extends ApiTokenInfo {
	/** The only time the plaintext exists outside the caller's hands. */
	token: string;
}

const ExpirySchema = v.optional(
	v.pipe(
		v.date('Expiry must be a date.'),
		v.check((d) => !Number.isNaN(d.getTime()), 'Expiry must be a valid date.')
	)
);

/** When the token expires (none: never), the clock, and the language of the field errors (English by default). */
export interface TokenOptions {
	expiresAt?: Date | undefined;
	now?: number;
	language?: Language;
}

export async function createToken(
	deps: AuthDeps,
	userId: string,
	name: unknown,
	{ expiresAt, now = Date.now(), language = 'en' }: TokenOptions = {}
): Promise<CreatedToken> {
	const validName = parseField(TokenNameSchema, 'name', name, language);
	const expiry = parseField(ExpirySchema, 'expiresAt', expiresAt);
	if (expiry && expiry.getTime() <= now) throw new AuthValidationError({ expiresAt: translate(language, 'tokens.error.past') });
	const token = TOKEN_PREFIX + randomSecret();
	const id = newId();
	await deps.control.db.insert(apiTokens).values({
		id,
		userId,
		name: validName,
		tokenHash: sha256Hex(token),
		createdAt: now,
		expiresAt: expiry ? expiry.getTime() : null
	});
	return { id, name: validName, token, createdAt: new Date(now), expiresAt: expiry ?? null, lastUsedAt: null };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * "Expires in D days" from a form field or CLI flag; empty means never. Throws AuthValidationError (field expiresDays,
 * its message in `language`).
 */
export function expiryFromDays(
	days: unknown,
	{ now = Date.now(), language = 'en' }: Omit<TokenOptions, 'expiresAt'> = {}
): Date | undefined {
	if (days === undefined || days === null || (typeof days === 'string' && days.trim() === '')) return undefined;
	const n = parseField(TokenDaysSchema, 'expiresDays', typeof days === 'string' ? Number(days.trim()) : days, language);
	return new Date(now + n * DAY_MS);
}

/** Resolves a Bearer token to its user, or throws InvalidTokenError saying why not. */
export async function authenticateToken(deps: AuthDeps, token: string, now = Date.now()): Promise<AuthUser> {
	if (!TOKEN_PATTERN.test(token)) throw new InvalidTokenError('malformed');
	const [row] = await deps.control.db
		.select()
		.from(apiTokens)
		.where(eq(apiTokens.tokenHash, sha256Hex(token)))
		.limit(1);
	if (!row) throw new InvalidTokenError('unknown');
	if (row.expiresAt !== null && row.expiresAt <= now) throw new InvalidTokenError('expired');
	const user = await activeUserById(deps, row.userId);
	if (!user) throw new InvalidTokenError('unknown');
	if (row.lastUsedAt === null || now - row.lastUsedAt >= LAST_USED_RESOLUTION_MS) {
		await deps.control.db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, row.id));
	}
	return user;
}

export async function listTokens(deps: AuthDeps, userId: string): Promise<ApiTokenInfo[]> {
	const rows = await deps.control.db
		.select()
		.from(apiTokens)
		.where(eq(apiTokens.userId, userId))
		.orderBy(desc(apiTokens.createdAt), apiTokens.id);
	return rows.map((r) => ({
		id: r.id,
		name: r.name,
		createdAt: new Date(r.createdAt),
		expiresAt: r.expiresAt === null ? null : new Date(r.expiresAt),
		lastUsedAt: r.lastUsedAt === null ? null : new Date(r.lastUsedAt)
	}));
}

/** Deletes one of the user's tokens; another user's token id is "not found", never revoked. */
export async function revokeToken(deps: AuthDeps, userId: string, tokenId: string): Promise<void> {
	const deleted = await deps.control.db
		.delete(apiTokens)
		.where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId)))
		.returning({ id: apiTokens.id });
	if (deleted.length === 0) throw new TokenNotFoundError();
}
