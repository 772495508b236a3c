/** World presets and the gallery: how often one user may publish. */
import * as v from 'valibot';

const Count = v.pipe(v.string(), v.trim(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number));

/** Spread into the environment schema of config/index.ts. */
export const PRESETS_ENV_ENTRIES = {
	/** Times one user may make a preset public in 24 hours (0 = no limit). */
	KANTERA_PUBLISH_PER_DAY: v.optional(Count, '10')
};

type PresetsEnv = v.InferOutput<v.ObjectSchema<typeof PRESETS_ENV_ENTRIES, undefined>>;

export interface PresetsConfig {
	/** Publications per user per rolling 24 hours; 0 turns the limit off. */
	publishPerDay: number;
}

export function presetsConfig(e: PresetsEnv): PresetsConfig {
	return { publishPerDay: e.KANTERA_PUBLISH_PER_DAY };
}
