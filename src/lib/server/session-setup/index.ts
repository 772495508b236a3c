/**
 * What a play session is set up with, kept in its database's meta table: the pinned mission (the GM's
 * rules, the world's GM behaviour, the language; composed once at the start and never changed) and the
 * session's settings (language, provider, model); who plays at the table when several play together
 * (`table.ts`). Session start and world seeding write them; the turn
 * engine, the hand-off and the API read them.
 */
export {
	composeMission,
	ensureMission,
	ensureMissionQuery,
	missionOf,
	missionQuery,
	readMission,
	GM_RULES,
	LANGUAGE_RULE,
	MISSION_KEY
} from './mission';
export { readSettings, writeSettings, writeSettingsQueries, settingsQuery, settingsOf, type SessionSettings } from './settings';
export { renderTable, tableOf, tableQuery, writeTableQuery, TABLE_KEY } from './table';
