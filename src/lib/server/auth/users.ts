/** Local accounts: sign-up (first account is admin), sign-in and look-ups. */
import { eq, sql } from 'drizzle-orm';
import { controlSchema, newId, type ControlDb } from '../db';
import type { Config } from '../config';
import { hashPassword, verifyPassword, dummyPasswordHash } from './password';
import {
	AccountSuspendedError,
	InvalidCredentialsError,
	LocalAccountsDisabledError,
	SignupDisabledError,
	UsernameTakenError,
	UnknownUserError,
	AuthValidationError
} from './errors';
import { UsernameSchema, PasswordSchema, PASSWORD_MAX, parseField } from './validation';
import * as v from 'valibot';
import type { Tier } from '../../types/account';
import type { Language } from '../../types/settings';

const { users } = controlSchema;

/** The signed-in person as the rest of the app sees them. */
export interface AuthUser {
	id: string;
	name: string;
	isAdmin: boolean;
	tier: Tier;
}

/** What accounts, sign-in and tokens need: the control database and the auth settings (an `App` fits). */
export interface AuthDeps {
	control: ControlDb;
	config: Pick<Config, 'auth'>;
}

interface UserRow {
	id: string;
	name: string;
	isAdmin: boolean;
	tier: Tier;
}
export const toAuthUser = (row: UserRow): AuthUser => ({ id: row.id, name: row.name, isAdmin: row.isAdmin, tier: row.tier });

/** Names are unique without regard to case: "Alice" and "alice" would be the same person to a reader. */
const sameName = (name: string) => sql`lower(${users.name}) = lower(${name})`;

export interface CreateUserInput {
	name: unknown;
	password: unknown;
}

/** Validates both fields together so a form can show every message at once, in `language`. */
function validateAccount(input: CreateUserInput, language: Language): { name: string; password: string } {
	const fields: Record<string, string> = {};
	const name = v.safeParse(UsernameSchema, input.name, { lang: language });
	const password = v.safeParse(PasswordSchema, input.password, { lang: language });
	if (!name.success) fields.name = name.issues[0].message;
	if (!password.success) fields.password = password.issues[0].message;
	if (!name.success || !password.success) throw new AuthValidationError(fields);
	return { name: name.output, password: password.output };
}

/** drizzle wraps driver errors; the SQLite message may sit on the error or its cause. */
export function isUniqueViolation(err: unknown): boolean {
	for (let e: unknown = err; e instanceof Error; e = e.cause) {
		if (/UNIQUE constraint failed/i.test(e.message)) return true;
	}
	return false;
}

async function countUsers(deps: AuthDeps): Promise<number> {
	const [row] = await deps.control.db.select({ n: sql<number>`count(*)` }).from(users);
	return Number(row?.n ?? 0);
}

/** Whether the sign-up page is open: always for the very first account, then as configured. */
export async function signupOpen(deps: AuthDeps): Promise<boolean> {
	return deps.config.auth.allowSignup || (await countUsers(deps)) === 0;
}

/**
 * Creates an account. The first account ever becomes admin; the check and the insert are one SQL
 * statement, so two simultaneous first sign-ups cannot both become admin.
 * `viaOperator` (the CLI) bypasses KANTERA_ALLOW_SIGNUP; `admin` forces the admin flag; `language` is the
 * field errors' (English by default: the CLI's).
 */
export async function createUser(
	deps: AuthDeps,
	input: CreateUserInput,
	opts: { viaOperator?: boolean; admin?: boolean; language?: Language } = {}
): Promise<AuthUser> {
	const { name, password } = validateAccount(input, opts.language ?? 'en');
	if (!opts.viaOperator && !deps.config.auth.localAccounts) throw new LocalAccountsDisabledError();
	if (!opts.viaOperator && !(await signupOpen(deps))) throw new SignupDisabledError();
	if (await findUserByName(deps, name)) throw new UsernameTakenError(name);
	const passwordHash = await hashPassword(password);
	const id = newId();
	try {
		const [row] = await deps.control.db
			.insert(users)
			.values({
				id,
				name,
				passwordHash,
				isAdmin: opts.admin ? true : sql`(SELECT count(*) = 0 FROM users)`,
				createdAt: Date.now()
			})
			.returning({ id: users.id, name: users.name, isAdmin: users.isAdmin, tier: users.tier });
		if (!row) throw new Error('insert returned no row');
		return toAuthUser(row);
	} catch (err) {
		// Lost a race with another sign-up of the same name (unique index).
		if (isUniqueViolation(err)) throw new UsernameTakenError(name);
		throw err;
	}
}

/** Checks a name and password. Unknown name and wrong password fail the same way, in about the same time. */
export async function verifyCredentials(deps: AuthDeps, input: { name: unknown; password: unknown }): Promise<AuthUser> {
	if (!deps.config.auth.localAccounts) throw new LocalAccountsDisabledError();
	const name = v.safeParse(UsernameSchema, input.name);
	// No minimum here (rules may change); the maximum spares the KDF from huge inputs.
	const password = v.safeParse(v.pipe(v.string(), v.maxLength(PASSWORD_MAX)), input.password);
	if (!name.success || !password.success) throw new InvalidCredentialsError();
	const [row] = await deps.control.db.select().from(users).where(sameName(name.output)).limit(1);
	if (!row) {
		await verifyPassword(password.output, await dummyPasswordHash());
		throw new InvalidCredentialsError();
	}
	if (!(await verifyPassword(password.output, row.passwordHash))) throw new InvalidCredentialsError();
	// Only once the password is right: a suspended account's existence is told to its owner, not to a guesser.
	if (row.suspendedAt !== null) throw new AccountSuspendedError();
	return toAuthUser(row);
}

async function findUserByName(deps: AuthDeps, name: string): Promise<AuthUser | null> {
	const [row] = await deps.control.db.select().from(users).where(sameName(name)).limit(1);
	return row ? toAuthUser(row) : null;
}

export async function getUserByName(deps: AuthDeps, name: unknown): Promise<AuthUser> {
	const valid = parseField(UsernameSchema, 'name', name);
	const user = await findUserByName(deps, valid);
	if (!user) throw new UnknownUserError(valid);
	return user;
}

export async function getUserById(deps: AuthDeps, id: string): Promise<AuthUser | null> {
	const [row] = await deps.control.db.select().from(users).where(eq(users.id, id)).limit(1);
	return row ? toAuthUser(row) : null;
}

/** The account if it may act now: null when it is unknown or suspended (a cookie or a token of it is refused). */
export async function activeUserById(deps: AuthDeps, id: string): Promise<AuthUser | null> {
	const [row] = await deps.control.db.select().from(users).where(eq(users.id, id)).limit(1);
	return row && row.suspendedAt === null ? toAuthUser(row) : null;
}

/** The oldest admin: the default owner for operator commands. */
export async function firstAdmin(deps: AuthDeps): Promise<AuthUser | null> {
	const [row] = await deps.control.db.select().from(users).where(eq(users.isAdmin, true)).orderBy(users.createdAt, users.id).limit(1);
	return row ? toAuthUser(row) : null;
}

export async function listUsers(deps: AuthDeps): Promise<AuthUser[]> {
	const rows = await deps.control.db.select().from(users).orderBy(users.createdAt, users.id);
	return rows.map(toAuthUser);
}

/** An account as the admin's list shows it: who, since when, suspended since when. */
export interface AccountRow extends AuthUser {
	createdAt: number;
	suspendedAt: number | null;
}

export async function listAccounts(deps: AuthDeps): Promise<AccountRow[]> {
	const rows = await deps.control.db.select().from(users).orderBy(users.createdAt, users.id);
	return rows.map((r) => ({ ...toAuthUser(r), createdAt: r.createdAt, suspendedAt: r.suspendedAt }));
}

/** Renames an account (the same rules as sign-up, field errors in `language`); the name is also the local sign-in handle. */
export async function renameUser(deps: AuthDeps, userId: string, name: unknown, language: Language = 'en'): Promise<AuthUser> {
	const valid = parseField(UsernameSchema, 'name', name, language);
	const existing = await findUserByName(deps, valid);
	if (existing && existing.id !== userId) throw new UsernameTakenError(valid);
	try {
		const [row] = await deps.control.db.update(users).set({ name: valid }).where(eq(users.id, userId)).returning();
		if (!row) throw new UnknownUserError(valid);
		return toAuthUser(row);
	} catch (err) {
		if (isUniqueViolation(err)) throw new UsernameTakenError(valid);
		throw err;
	}
}

/** Sets an account's tier (an admin's or the operator's act). */
export async function setTier(deps: AuthDeps, userId: string, tier: Tier): Promise<AuthUser | null> {
	const [row] = await deps.control.db.update(users).set({ tier }).where(eq(users.id, userId)).returning();
	return row ? toAuthUser(row) : null;
}

/** Whether the account has a password it can sign in with (accounts made through a provider have none). */
export async function hasPassword(deps: AuthDeps, userId: string): Promise<boolean> {
	const [row] = await deps.control.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId));
	return Boolean(row?.hash);
}
