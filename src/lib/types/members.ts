/** Play together: the wire shapes of a session's members, seats, turn order and invitations (server and client). */
import * as v from 'valibot';

/** `free`: whoever sends first; `round`: each seat in turn. */
export const TURN_MODES = ['free', 'round'] as const;
export const TurnModeSchema = v.picklist(TURN_MODES, 'turnMode must be "free" or "round"');
export type TurnMode = v.InferOutput<typeof TurnModeSchema>;

export const MEMBER_ROLES = ['owner', 'player'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** The owner's seat; players take the next ones as they join. */
export const OWNER_SEAT = 1;

export const CharacterSchema = v.object({ name: v.string(), look: v.optional(v.string()), sheet: v.optional(v.string()) });
export type Character = v.InferOutput<typeof CharacterSchema>;

export const MemberSchema = v.object({
	userId: v.string(),
	name: v.string(),
	seat: v.number(),
	role: v.picklist(MEMBER_ROLES),
	/** Null for the owner, who plays the world's own player character. */
	character: v.nullable(CharacterSchema)
});
export type MemberDto = v.InferOutput<typeof MemberSchema>;

export const MembersSchema = v.object({
	members: v.array(MemberSchema),
	turnMode: TurnModeSchema,
	/** The seat whose turn it is in `round` mode; null in `free` mode. */
	currentSeat: v.nullable(v.number()),
	/** Round order: how long a seat may keep the table waiting before the owner may skip it (`PATCH …/sessions/{id}` sets it). */
	skipAfterSeconds: v.number(),
	/** Round order: from when the owner may skip the seat whose turn it is (ISO time); null in `free` mode. */
	skippableAt: v.nullable(v.string())
});
export type MembersDto = v.InferOutput<typeof MembersSchema>;

export const InvitationCreatedSchema = v.object({
	id: v.string(),
	token: v.string(),
	url: v.string(),
	expiresAt: v.string(),
	maxUses: v.number()
});
export type InvitationCreatedDto = v.InferOutput<typeof InvitationCreatedSchema>;

export const InvitationAcceptedSchema = v.object({ sessionId: v.string(), seat: v.number() });
export type InvitationAcceptedDto = v.InferOutput<typeof InvitationAcceptedSchema>;
