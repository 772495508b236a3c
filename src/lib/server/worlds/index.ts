/**
 * Worlds: the official world presets shipped with the app (Japanese and English), the schema every
 * preset follows, and seeding a new session from one.
 */
export { listWorlds, getWorld, isWorldId, WORLD_IDS, type WorldId, type WorldSummary } from './catalog';
export {
	seedSessionFromWorld,
	seedSessionFromPreset,
	seedQueries,
	writeSeed,
	WORLD_SEED_TURN_ID,
	PLOT_KEY,
	SEALED_DOCUMENTS_RULE,
	type SeededWorld,
	type SeedOptions,
	type SeedPlan
} from './seed';
export { readOrigin, readPresetCopy, type PresetOrigin, type StoredOrigin } from './origin';
export {
	WorldPresetSchema,
	WorldNpcSchema,
	WorldSecretSchema,
	WorldDocumentSchema,
	WorldOpeningSchema,
	findLeaks,
	playerVisibleFields,
	MAX_TAGLINE_CHARS,
	MAX_WORLD_NPCS,
	MAX_WORLD_SECRETS,
	MIN_SETTING_HEADINGS,
	MAX_SECRET_MARKERS,
	countHeadings,
	type WorldPreset,
	type WorldPresetInput,
	type WorldNpc,
	type WorldSecret,
	type Leak,
	type LeakCheckInput
} from './schema';
export { WorldError, type WorldErrorCode } from './errors';
