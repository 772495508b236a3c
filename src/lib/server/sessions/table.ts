/**
 * What everyone at the table is told when it changes: the GM's table note (session-setup/table.ts) is written
 * again with a `table.changed` event that tells the screens to read the seats again, and the session's streams
 * wake. Every change to who sits where, the turn order or whose turn it is ends here.
 */
import { appendEventsQuery, type EventBus } from '../events';
import { renderTable, writeTableQuery } from '../session-setup';
import { writeAll, type ControlDb, type SessionDbPool } from '../db';
import { listMembers } from './members';
import { roundState } from './round';
import type { PlaySession } from './index-store';
import type { MembersDto } from '../../types/members';

export interface TableDeps {
	control: ControlDb;
	sessions: SessionDbPool;
	bus: Pick<EventBus, 'notify'>;
}

/** The members, the turn order and whose turn it is. */
export async function membersOf(deps: Pick<TableDeps, 'control'>, session: Pick<PlaySession, 'id' | 'ownerId'>): Promise<MembersDto> {
	const [members, round] = await Promise.all([listMembers(deps, session), roundState(deps, session.id)]);
	return {
		members,
		turnMode: round.turnMode,
		currentSeat: round.currentSeat,
		skipAfterSeconds: round.skipAfterSeconds,
		skippableAt: round.skippableAt === null ? null : new Date(round.skippableAt).toISOString()
	};
}

/** Rewrites the GM's table note after a change at the table, with a `table.changed` event. */
export async function tableChanged(deps: TableDeps, session: Pick<PlaySession, 'id' | 'ownerId'>): Promise<MembersDto> {
	const table = await membersOf(deps, session);
	const text = renderTable(table.members, table);
	await deps.sessions.use(session.id, (s) =>
		writeAll(s, [writeTableQuery(s.writes, text), appendEventsQuery(s.writes, { type: 'table.changed' })])
	);
	deps.bus.notify(session.id);
	return table;
}
