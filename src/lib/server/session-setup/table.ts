/**
 * Who plays at the table, for the GM: when several players share a session, the seats, each one's character,
 * the turn order and whose turn it is. Kept apart from the pinned mission (which never changes) as its own
 * meta row, rewritten when someone joins or leaves, the turn order changes or a round turn is taken; every
 * request carries it at the top of the records head. A session with one player has no row and no section.
 */
import { meta, type SessionDb, type SessionExec } from '../db';
import type { MemberDto, TurnMode } from '../../types/members';

export const TABLE_KEY = 'table' satisfies meta.TextKey;

export function tableQuery(exec: Pick<SessionExec, 'select'>) {
	return meta.valueQuery(exec, TABLE_KEY);
}

/** The table's text, or undefined when one player plays alone. */
export const tableOf = (rows: readonly { value: string }[]): string | undefined => meta.textOf(rows) || undefined;

/** The GM's instructions for the table; undefined with the owner alone. */
export function renderTable(members: readonly MemberDto[], round: { turnMode: TurnMode; currentSeat: number | null }): string | undefined {
	if (members.length < 2) return undefined;
	const who = (m: MemberDto) => m.character?.name ?? m.name;
	const seats = members.map((m) => {
		const plays = m.character
			? `plays ${m.character.name}${m.character.look ? `; looks: ${m.character.look}` : ''}${m.character.sheet ? `; sheet: ${m.character.sheet}` : ''}`
			: "plays the world's own player character (named in their lines as " + JSON.stringify(m.name) + ')';
		return `- Seat ${m.seat} (${m.role === 'owner' ? 'the host' : 'a player'}): ${plays}`;
	});
	const current = members.find((m) => m.seat === round.currentSeat);
	const order =
		round.turnMode === 'round' && current
			? `Turn order: round, each seat in turn. Next to act: seat ${current.seat}, ${who(current)}: end your reply by turning to them by name.`
			: 'Turn order: free, whoever speaks first; several lines may come together, answer each in order.';
	return [
		'Several players share this story, each with their own character. Each player line comes tagged "Name: text" with the character who says or does it.',
		'Address each player by their character, never by account name; keep every character in the scene and give each of them their turn.',
		'Seats:',
		...seats,
		order
	].join('\n');
}

/** Rewrites (or, with undefined, clears) the table row, unrun: for a write batch (with the event that tells the screens). */
export function writeTableQuery(w: Pick<SessionDb['writes'], 'insert'>, text: string | undefined) {
	return meta.putQuery(w, TABLE_KEY, text ?? '');
}
