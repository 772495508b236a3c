/**
 * Play together: the control database's tables of who plays in a session beside its owner, and the links that
 * let them in. Re-exported by `control-schema.ts`, like the presets' tables.
 */
import { sqliteTable, text, integer, index, primaryKey, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { playSessions, users } from './control-schema';

/**
 * The players a session's owner let in (the owner is not a row: seat 1 is always theirs). A member the owner
 * removed keeps the row, without a seat, so that an invitation still open does not let them back in.
 */
export const sessionMembers = sqliteTable(
	'session_members',
	{
		sessionId: text('session_id')
			.notNull()
			.references(() => playSessions.id, { onDelete: 'cascade' }),
		userId: text('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		/** 2 and up, in the order they joined; null once removed. */
		seat: integer('seat'),
		characterName: text('character_name').notNull(),
		characterLook: text('character_look'),
		characterSheet: text('character_sheet'),
		joinedAt: integer('joined_at').notNull(),
		removedAt: integer('removed_at')
	},
	(t) => [
		primaryKey({ columns: [t.sessionId, t.userId] }),
		uniqueIndex('session_members_seat').on(t.sessionId, t.seat),
		index('session_members_user').on(t.userId)
	]
);

/** Invitation links to a session. Only the SHA-256 of the token is stored, as for API tokens. */
export const sessionInvitations = sqliteTable(
	'session_invitations',
	{
		id: text('id').primaryKey(),
		sessionId: text('session_id')
			.notNull()
			.references(() => playSessions.id, { onDelete: 'cascade' }),
		tokenHash: text('token_hash').notNull().unique(),
		createdAt: integer('created_at').notNull(),
		expiresAt: integer('expires_at').notNull(),
		maxUses: integer('max_uses').notNull(),
		uses: integer('uses').notNull().default(0),
		revokedAt: integer('revoked_at')
	},
	(t) => [index('session_invitations_session').on(t.sessionId)]
);
