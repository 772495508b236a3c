/** Test-data factories for presets: a valid preset's fields (without id), in either language, with a marker to hunt for. */
import { getWorld, type WorldPreset } from '../../../src/lib/server/worlds';
import type { Language } from '../../../src/lib/types/settings';
import { contentOf } from '../../../src/lib/server/presets/content';

/** A phrase that must never reach the player in a sealed session: it sits in a setting section. */
export const SETTING_MARKER = 'QUILLFEATHER-7Z';

export interface PresetOverrides {
	title?: string;
	tagline?: string;
	language?: Language;
}

/** An author's preset built from an official world's content, retitled, with the marker in a setting section. */
export type PresetContent = Omit<WorldPreset, 'id'>;

export function presetInput(overrides: PresetOverrides = {}): PresetContent {
	const language = overrides.language ?? 'en';
	const world = contentOf(getWorld('sword-and-sorcery', language));
	const setting = `${world.documents.setting.body}\n\n## The Vault Below\n\nUnder the salt office lies a vault sealed with the word ${SETTING_MARKER}.`;
	return {
		...structuredClone(world),
		title: overrides.title ?? `${world.title} (fan edition)`,
		tagline: overrides.tagline ?? world.tagline,
		documents: { ...world.documents, setting: { ...world.documents.setting, body: setting } }
	};
}

/** What a call ended with: 'ok', or the code of the error it threw (a PresetError's, or any coded error's). */
export async function outcomeCode(p: Promise<unknown>): Promise<string> {
	try {
		await p;
		return 'ok';
	} catch (err) {
		return err instanceof Error && 'code' in err ? String(err.code) : String(err);
	}
}
