/** World presets and the gallery: how often one user may publish. */
import * as v from 'valibot';
import { NonNegativeInt } from './env-values';

/** Spread into the environment schema of config/index.ts. */
export const PRESETS_ENV_ENTRIES = {
	/** Times one user may make a preset public in 24 hours (0 = no limit). */
	KANTERA_PUBLISH_PER_DAY: v.optional(NonNegativeInt, '10')
};

type PresetsEnv = v.InferOutput<v.ObjectSchema<typeof PRESETS_ENV_ENTRIES, undefined>>;

export interface PresetsConfig {
	/** Publications per user per rolling 24 hours; 0 turns the limit off. */
	publishPerDay: number;
}

export function presetsConfig(e: PresetsEnv): PresetsConfig {
	return { publishPerDay: e.KANTERA_PUBLISH_PER_DAY };
}
