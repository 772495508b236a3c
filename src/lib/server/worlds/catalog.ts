/**
 * The official worlds shipped with the app, in every UI language. Content lives in TypeScript
 * modules (no filesystem reads at run time: edge hosts have none) and is validated with the same
 * schema as any preset the first time it is asked for.
 */
import * as v from 'valibot';
import { WorldError } from './errors';
import { WorldPresetSchema, type WorldPreset, type WorldPresetInput } from './schema';
import { LANGUAGES, type Language } from '../../types/settings';
import { swordAndSorceryEn } from './content/sword-and-sorcery.en';
import { swordAndSorceryJa } from './content/sword-and-sorcery.ja';
import { ironWalkersEn } from './content/iron-walkers.en';
import { ironWalkersJa } from './content/iron-walkers.ja';

const SHIPPED = {
	'sword-and-sorcery': { ja: swordAndSorceryJa, en: swordAndSorceryEn },
	'iron-walkers': { ja: ironWalkersJa, en: ironWalkersEn }
} as const satisfies Record<string, Record<Language, WorldPresetInput>>;

export type WorldId = keyof typeof SHIPPED;
export const WORLD_IDS: readonly WorldId[] = ['sword-and-sorcery', 'iron-walkers'];

export interface WorldSummary {
	readonly id: WorldId;
	readonly title: string;
	readonly tagline: string;
}

export function isWorldId(value: string): value is WorldId {
	return WORLD_IDS.some((id) => id === value);
}

/** Parsed presets by `id:language`. The content is constant, so a parse is done once per process. */
const parsed = new Map<string, WorldPreset>();

/** A shipped world in one language, validated. Throws WorldError for an unknown id. */
export function getWorld(id: string, language: Language): WorldPreset {
	if (!isWorldId(id)) throw new WorldError('unknown_world', `There is no world "${id}"; the worlds are ${WORLD_IDS.join(', ')}.`);
	if (!LANGUAGES.includes(language))
		throw new WorldError('unknown_world', `Worlds are written in ${LANGUAGES.join(' and ')}; got "${String(language)}".`);
	const cacheKey = `${id}:${language}`;
	const cached = parsed.get(cacheKey);
	if (cached) return cached;
	const result = v.safeParse(WorldPresetSchema, SHIPPED[id][language]);
	if (!result.success) {
		const issues = result.issues.map((i) => `${v.getDotPath(i) ?? '(world)'}: ${i.message}`).join('; ');
		throw new WorldError('invalid_world', `The shipped world ${cacheKey} is invalid: ${issues}`);
	}
	if (result.output.id !== id || result.output.language !== language) {
		throw new WorldError('invalid_world', `The shipped world ${cacheKey} says it is ${result.output.id}:${result.output.language}.`);
	}
	parsed.set(cacheKey, result.output);
	return result.output;
}

/** What a world picker shows, in the player's language. */
export function listWorlds(language: Language): WorldSummary[] {
	return WORLD_IDS.map((id) => {
		const world = getWorld(id, language);
		return { id, title: world.title, tagline: world.tagline };
	});
}
