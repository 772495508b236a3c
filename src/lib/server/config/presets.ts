/** World presets and the gallery: how often one user may publish, and whether worlds rated mature are shown at all. */
import * as v from 'valibot';
import { Bool, NonNegativeInt } from './env-values';

/** Spread into the environment schema of config/index.ts. */
export const PRESETS_ENV_ENTRIES = {
	/** Times one user may make a preset public in 24 hours (0 = no limit). */
	KANTERA_PUBLISH_PER_DAY: v.optional(NonNegativeInt, '10'),
	/** Whether worlds rated mature may be shown to those who opt in (false: to no one but their authors). */
	KANTERA_MATURE_CONTENT: v.optional(Bool, 'true')
};

type PresetsEnv = v.InferOutput<v.ObjectSchema<typeof PRESETS_ENV_ENTRIES, undefined>>;

export interface PresetsConfig {
	/** Publications per user per rolling 24 hours; 0 turns the limit off. */
	publishPerDay: number;
	/** False: presets rated mature are hidden from everyone but their authors, opted in or not. */
	matureContent: boolean;
}

export function presetsConfig(e: PresetsEnv): PresetsConfig {
	return { publishPerDay: e.KANTERA_PUBLISH_PER_DAY, matureContent: e.KANTERA_MATURE_CONTENT };
}
