/**
 * The images the stage draws: each character's sprite and each place's background, by name. A name
 * without an image yet is drawn as a placeholder (silhouette, grid backdrop); `image.ready` swaps
 * the real one in while the page is open, `image.failed` keeps the placeholder and says so.
 */
import { SvelteMap } from 'svelte/reactivity';
import { characterKey } from '../adv';
import type { ImageTarget } from '../types/events';
import type { ImageStatus, StageImagesDto } from '../types/log';

export interface ImageEntry {
	url: string | null;
	status: ImageStatus;
}

const PENDING: ImageEntry = Object.freeze({ url: null, status: 'pending' });

export class StageImages {
	private readonly npcs = new SvelteMap<string, ImageEntry>();
	private readonly scenes = new SvelteMap<string, ImageEntry>();

	constructor(images: StageImagesDto = { characters: [], scenes: [] }) {
		this.replace(images);
	}

	/** Takes the server's list (page load, a commit that registered new names, a backlog page). */
	replace(images: StageImagesDto): void {
		for (const n of images.characters) this.set(this.npcs, n.name, { url: n.url, status: n.status });
		for (const s of images.scenes) this.set(this.scenes, s.name, { url: s.url, status: s.status });
	}

	/** Registered names (keys are folded: compare with `characterKey`). */
	names(target: ImageTarget): string[] {
		return [...(target === 'npc' ? this.npcs : this.scenes).keys()];
	}

	sprite(character: string): ImageEntry {
		return this.npcs.get(characterKey(character)) ?? PENDING;
	}

	background(scene: string): ImageEntry {
		return this.scenes.get(characterKey(scene)) ?? PENDING;
	}

	ready(target: ImageTarget, name: string, url: string): void {
		this.set(target === 'npc' ? this.npcs : this.scenes, name, { url, status: 'ready' });
	}

	/** The job gave up: a previous image stays; without one, the placeholder stays, marked failed. */
	failed(target: ImageTarget, name: string): void {
		const map = target === 'npc' ? this.npcs : this.scenes;
		const current = map.get(characterKey(name));
		if (current?.url) return;
		this.set(map, name, { url: null, status: 'failed' });
	}

	private set(map: SvelteMap<string, ImageEntry>, name: string, entry: ImageEntry): void {
		const key = characterKey(name);
		const current = map.get(key);
		// A list read after an image.ready event may be older than the event: never go back to no image.
		if (current?.url && !entry.url) return;
		if (current && current.url === entry.url && current.status === entry.status) return;
		map.set(key, entry);
	}
}
