/** The limits the editor shows counters for, read from the constants the schema itself checks. */
import { MAX_BODY_CHARS, MAX_NAME_CHARS } from '../records';
import { MAX_LOOK_CHARS, MAX_STAGE_NAME_CHARS } from '../stage';
import { MAX_SPEAKER_CHARS, STAGE_SLOTS } from '../../adv';
import {
	MAX_ANACHRONISM_TERMS,
	MAX_ANACHRONISMS,
	MAX_CANON_TERM_CHARS,
	MAX_SECRET_MARKERS,
	MAX_TAGLINE_CHARS,
	MAX_WORLD_NPCS,
	MAX_WORLD_SECRETS,
	MIN_SETTING_HEADINGS,
	MAX_TAGS,
	MAX_TAG_CHARS
} from '../worlds';
import type { PresetLimits } from '../../presets/form';
import { MAX_PRESET_BYTES } from './content';

export function presetLimits(): PresetLimits {
	return {
		name: MAX_NAME_CHARS,
		tagline: MAX_TAGLINE_CHARS,
		body: MAX_BODY_CHARS,
		look: MAX_LOOK_CHARS,
		npcName: Math.min(MAX_STAGE_NAME_CHARS, MAX_SPEAKER_CHARS),
		sceneName: MAX_STAGE_NAME_CHARS,
		npcs: MAX_WORLD_NPCS,
		secrets: MAX_WORLD_SECRETS,
		markers: MAX_SECRET_MARKERS,
		anachronisms: MAX_ANACHRONISMS,
		anachronismTerms: MAX_ANACHRONISM_TERMS,
		term: MAX_CANON_TERM_CHARS,
		onStage: STAGE_SLOTS.length,
		settingHeadings: MIN_SETTING_HEADINGS,
		presetBytes: MAX_PRESET_BYTES,
		tags: MAX_TAGS,
		tagChars: MAX_TAG_CHARS
	};
}
