/**
 * The images the stage draws: each character's sprite (and its expression sprites) and each place's
 * background, by name. A name without an image yet is drawn as a placeholder (a silhouette, a
 * backdrop for its kind of place); `image.ready` swaps the real one in while the page is open,
 * `image.failed` keeps the placeholder and says so.
 */
import { SvelteMap } from 'svelte/reactivity';
import { characterKey, parseSpriteVariant, spriteVariantName } from '../adv';
import type { ImageTarget, StagedPlace } from '../types/events';
import type { StageImageDto, StageImagesDto } from '../types/log';

/** One image as the stage holds it: the server's stage image without its name (the key it is kept under). */
export type ImageEntry = Pick<StageImageDto, 'url' | 'status' | 'kind'>;

/** A sprite to draw for a figure. */
export interface SpriteImage extends ImageEntry {
	/**
	 * The image shows the figure's expression. False when the default sprite (or the silhouette)
	 * stands in for an expression that has no sprite (yet): the stage names the expression on it.
	 */
	expressed: boolean;
}

const PENDING: ImageEntry = Object.freeze({ url: null, status: 'pending' });

const variantKey = (character: string, expression: string) => characterKey(spriteVariantName(character, expression));

export class StageImages {
	private readonly npcs = new SvelteMap<string, ImageEntry>();
	/** Expression sprites, by `characterKey("Name(expression)")`. */
	private readonly variants = new SvelteMap<string, ImageEntry>();
	private readonly scenes = new SvelteMap<string, ImageEntry>();
	/** The registered characters' names as written, by `characterKey` (the voice settings list them). */
	private readonly written = new SvelteMap<string, string>();

	constructor(images: StageImagesDto = { characters: [], scenes: [] }) {
		this.replace(images);
	}

	/** Takes the server's list (page load, a commit that registered new names, a backlog page). */
	replace(images: StageImagesDto): void {
		for (const n of images.characters) {
			if (n.expression !== undefined) this.set(this.variants, spriteVariantName(n.name, n.expression), entry(n));
			else {
				this.set(this.npcs, n.name, entry(n));
				this.written.set(characterKey(n.name), n.name);
			}
		}
		for (const s of images.scenes) this.set(this.scenes, s.name, entry(s));
	}

	/**
	 * Places the streaming turn registered (`set_scene`): drawn as their kind of placeholder until
	 * the commit brings the server's list. A place already known keeps its entry.
	 */
	stagePlaces(places: readonly StagedPlace[]): void {
		for (const p of places)
			if (!this.scenes.has(characterKey(p.name))) this.scenes.set(characterKey(p.name), { url: null, status: 'pending', kind: p.kind });
	}

	/** Registered names (keys are folded: compare with `characterKey`). */
	names(target: ImageTarget): string[] {
		return [...(target === 'npc' ? this.npcs : this.scenes).keys()];
	}

	/** The registered characters, as their names are written. */
	characters(): string[] {
		return [...this.written.values()];
	}

	/** The sprite of a character showing `expression`: its own, or the default one standing in. */
	sprite(character: string, expression?: string): SpriteImage {
		const base = this.npcs.get(characterKey(character)) ?? PENDING;
		if (expression === undefined) return { ...base, expressed: true };
		const own = this.variants.get(variantKey(character, expression));
		return own?.url ? { ...own, expressed: true } : { ...base, expressed: false };
	}

	background(scene: string): ImageEntry {
		return this.scenes.get(characterKey(scene)) ?? PENDING;
	}

	ready(target: ImageTarget, name: string, url: string): void {
		const [map, key] = this.slotOf(target, name);
		this.set(map, key, { ...map.get(characterKey(key)), url, status: 'ready' });
	}

	/** The job gave up: a previous image stays; without one, the placeholder stays, marked failed. */
	failed(target: ImageTarget, name: string): void {
		const [map, key] = this.slotOf(target, name);
		const current = map.get(characterKey(key));
		if (current?.url) return;
		this.set(map, key, { ...current, url: null, status: 'failed' });
	}

	/** Where an image event's name goes: an expression sprite (`Name(expression)`) or a plain name. */
	private slotOf(target: ImageTarget, name: string): [SvelteMap<string, ImageEntry>, string] {
		if (target === 'scene') return [this.scenes, name];
		return parseSpriteVariant(name) ? [this.variants, name] : [this.npcs, name];
	}

	private set(map: SvelteMap<string, ImageEntry>, name: string, next: ImageEntry): void {
		const key = characterKey(name);
		const current = map.get(key);
		// A list read after an image.ready event may be older than the event: never go back to no image.
		if (current?.url && !next.url) return;
		if (current && current.url === next.url && current.status === next.status && current.kind === next.kind) return;
		map.set(key, next);
	}
}

function entry(dto: StageImageDto): ImageEntry {
	return dto.kind === undefined ? { url: dto.url, status: dto.status } : { url: dto.url, status: dto.status, kind: dto.kind };
}
