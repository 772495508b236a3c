/**
 * Administrators' acts on accounts and presets, each written to the audit log (audit/) after it is done: the pages
 * under /admin call these, so a form and a future API answer the same way. An admin cannot act on their own account
 * here (suspending or deleting yourself would lock the server's last way in); the CLI can: it acts as OPERATOR, an
 * actor that is no account, so a lone admin can still be suspended, reset or deleted from the server's shell.
 */
import {
	createPasswordReset,
	deleteUserRow,
	getUserById,
	listAccounts,
	revokeSignIns,
	setSuspended,
	setTier,
	type AccountRow,
	type AuthUser
} from '../auth';
import { recordAdminAction, type AuditAction } from '../audit';
import { deletePreset, dismissReports, getPresetRow, liftTakedown, listMine, takeDown } from '../presets';
import { listPlaySessions } from '../sessions';
import type { App as Kantera } from '../app';
import type { Tier } from '../../types/account';
import { deleteSession } from './sessions';

/** Why an admin act was refused, as a code the page words in the reader's language. */
export type AdminRefusal = 'admin.noSuchUser' | 'admin.notYourself';

export class AdminActError extends Error {
	constructor(readonly code: AdminRefusal) {
		super(code);
	}
}

export { listAccounts, type AccountRow };

/** Who acts: an admin's account, or OPERATOR (the CLI, run by whoever has the server's shell). */
export type AdminActor = Pick<AuthUser, 'id' | 'name'>;

/** The CLI's actor; its id is no account's (those are random), so "not yourself" never refuses it. */
export const OPERATOR: AdminActor = { id: 'operator', name: 'operator (CLI)' };

async function target(app: Kantera, admin: AdminActor, userId: string): Promise<AuthUser> {
	if (userId === admin.id) throw new AdminActError('admin.notYourself');
	const user = await getUserById(app, userId);
	if (!user) throw new AdminActError('admin.noSuchUser');
	return user;
}

const audit = (app: Kantera, admin: AdminActor, action: AuditAction, user: AuthUser, detail?: string) =>
	recordAdminAction(app.control.db, { admin, action, target: { kind: 'user', id: user.id, name: user.name }, detail });

export async function adminSetTier(app: Kantera, admin: AdminActor, userId: string, tier: Tier): Promise<AuthUser> {
	const before = await getUserById(app, userId);
	if (!before) throw new AdminActError('admin.noSuchUser');
	const user = await setTier(app, userId, tier);
	if (!user) throw new AdminActError('admin.noSuchUser');
	await audit(app, admin, 'set_tier', user, `${before.tier} → ${tier}`);
	return user;
}

export async function adminSuspend(app: Kantera, admin: AdminActor, userId: string, suspended: boolean): Promise<AuthUser> {
	const user = await target(app, admin, userId);
	await setSuspended(app, user.id, suspended);
	await audit(app, admin, suspended ? 'suspend' : 'unsuspend', user);
	return user;
}

export async function adminRevokeSignIns(app: Kantera, admin: AdminActor, userId: string): Promise<AuthUser> {
	const user = await target(app, admin, userId);
	await revokeSignIns(app, user.id);
	await audit(app, admin, 'revoke_sign_ins', user);
	return user;
}

/** A reset link's path (`/reset-password/<token>`), shown once to the admin to pass on; valid for a day. */
export async function adminPasswordReset(
	app: Kantera,
	admin: AdminActor,
	userId: string
): Promise<{ user: AuthUser; path: string; expiresAt: Date }> {
	const user = await target(app, admin, userId);
	const { token, expiresAt } = await createPasswordReset(app, user.id);
	await audit(app, admin, 'password_reset', user);
	return { user, path: `/reset-password/${token}`, expiresAt };
}

/**
 * Deletes the account with everything it owns: its sessions (their databases, local or Turso, save slots and
 * images, running turns cancelled first), its presets and their covers, then the account row (its sign-ins,
 * identities, favourites and reports go with it by foreign key). Sessions others played from its presets keep
 * their own copies.
 */
export async function adminDeleteAccount(app: Kantera, admin: AdminActor, userId: string): Promise<AuthUser> {
	const user = await target(app, admin, userId);
	// Suspended first, so nothing new (a turn, a preset) starts while the rest goes.
	await setSuspended(app, user.id, true);
	for (const session of await listPlaySessions(app, user.id)) await deleteSession(app, user, session.id);
	const author = { id: user.id, isAdmin: false };
	const presets = await listMine(app, author);
	for (const preset of presets) await deletePreset(app, author, preset.id);
	await deleteUserRow(app, user.id);
	await audit(app, admin, 'delete_account', user, `${presets.length} presets`);
	return user;
}

const auditPreset = (app: Kantera, admin: AdminActor, action: AuditAction, preset: { id: string; title: string }, detail?: string) =>
	recordAdminAction(app.control.db, { admin, action, target: { kind: 'preset', id: preset.id, name: preset.title }, detail });

export async function adminTakeDown(app: Kantera, admin: AdminActor, presetId: string, reason: string): Promise<void> {
	const row = await takeDown(app.control.db, presetId, { reason, adminId: admin.id });
	await auditPreset(app, admin, 'take_down', row, reason);
}

export async function adminLiftTakedown(app: Kantera, admin: AdminActor, presetId: string): Promise<void> {
	const row = await liftTakedown(app.control.db, presetId);
	await auditPreset(app, admin, 'lift_takedown', row);
}

export async function adminDismissReports(app: Kantera, admin: AdminActor, presetId: string): Promise<void> {
	const row = await getPresetRow(app.control.db, presetId);
	await dismissReports(app.control.db, presetId);
	if (row) await auditPreset(app, admin, 'dismiss_reports', row);
}
