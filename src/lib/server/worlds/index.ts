/**
 * Worlds: the official world presets shipped with the app (Japanese and English), the schema every
 * preset follows, and seeding a new session from one.
 */
export { listWorlds, getWorld, isWorldId, WORLD_IDS } from './catalog';
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
	type SeedArt,
	type SeedPlan
} from './seed';
export { readOrigin, readPresetCopy } from './origin';
export {
	WorldPresetSchema,
	findLeaks,
	MAX_TAGLINE_CHARS,
	MAX_WORLD_NPCS,
	MAX_WORLD_SECRETS,
	MIN_SETTING_HEADINGS,
	MAX_SECRET_MARKERS,
	MAX_ANACHRONISMS,
	MAX_ANACHRONISM_TERMS,
	MAX_CANON_TERM_CHARS,
	type WorldPreset
} from './schema';
export { WorldError } from './errors';
export {
	CardKeepSchema,
	jsonDepth,
	MAX_OPENING_CHOICES,
	MAX_TAGS,
	MAX_TAG_CHARS,
	MAX_KEPT_JSON_DEPTH,
	MAX_CARD_KEEP_BYTES,
	type CardKeep
} from './authoring';
