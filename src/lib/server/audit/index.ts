/**
 * The administrators' audit log: who did what to which account or preset, and when. Written right after the act
 * (api/admin.ts), read newest first on /admin/audit and exported as CSV.
 */
import { desc, lt } from 'drizzle-orm';
import { controlSchema, type ControlDrizzle } from '../db';
import { csvField } from '../usage';

const { adminAudit } = controlSchema;

export const AUDIT_ACTIONS = [
	'suspend',
	'unsuspend',
	'delete_account',
	'password_reset',
	'revoke_sign_ins',
	'set_tier',
	'take_down',
	'lift_takedown',
	'dismiss_reports'
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
	admin: { id: string; name: string };
	action: AuditAction;
	target: { kind: 'user' | 'preset'; id: string; name: string };
	/** Free text an admin reads: a takedown's reason, the tier set. */
	detail?: string;
}

export interface AuditRow {
	id: number;
	at: number;
	adminName: string;
	action: AuditAction;
	targetKind: 'user' | 'preset';
	targetId: string;
	targetName: string;
	detail: string;
}

export async function recordAdminAction(db: ControlDrizzle, entry: AuditEntry, now = Date.now()): Promise<void> {
	await db.insert(adminAudit).values({
		at: now,
		adminId: entry.admin.id,
		adminName: entry.admin.name,
		action: entry.action,
		targetKind: entry.target.kind,
		targetId: entry.target.id,
		targetName: entry.target.name,
		detail: entry.detail ?? ''
	});
}

/** Newest first; `before` (an entry id) pages back. */
export async function listAudit(db: ControlDrizzle, opts: { limit?: number; before?: number } = {}): Promise<AuditRow[]> {
	const rows = await db
		.select()
		.from(adminAudit)
		.where(opts.before === undefined ? undefined : lt(adminAudit.id, opts.before))
		.orderBy(desc(adminAudit.id))
		.limit(opts.limit ?? 100);
	return rows.map((r) => ({
		id: r.id,
		at: r.at,
		adminName: r.adminName,
		action: r.action as AuditAction,
		targetKind: r.targetKind,
		targetId: r.targetId,
		targetName: r.targetName,
		detail: r.detail
	}));
}

/** RFC 4180 CSV of the whole log, oldest first (a spreadsheet reads down), times in ISO 8601 UTC. */
export async function auditCsv(db: ControlDrizzle): Promise<string> {
	const rows = (await db.select().from(adminAudit).orderBy(adminAudit.id)).map((r) =>
		[new Date(r.at).toISOString(), r.adminName, r.action, r.targetKind, r.targetId, r.targetName, r.detail].map(csvField).join(',')
	);
	return ['at,admin,action,target_kind,target_id,target_name,detail', ...rows].join('\r\n') + '\r\n';
}
