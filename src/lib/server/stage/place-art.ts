/**
 * Which of the author's place backgrounds a scene the GM names should show. The author names a place once
 * ("The Gilded Tankard"); the GM, writing freely, registers "the gilded tankard", "Ｔｈｅ Gilded Tankard" or a
 * part of it, "The Gilded Tankard — back room". An exact match only left those grey or drawn over by a
 * generated image. A name matches the same name folded (NFKC, case, runs of spaces) or a longer name that starts
 * with it and goes on after a separator (a part of the place); the longest such name wins. A name merely
 * inside another does not: 地下 ("underground") is inside 高地下 ("below the hill") and is another place.
 */
const key = (name: string) => name.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/** What may follow a place's name when the GM names a part of it: a space, comma, dash, colon, bracket, dot. */
const SEPARATOR = /^[\s,、，:：\-–—(（「『【・/|]/u;

export function placeArtFor<T extends { readonly targetName: string }>(sceneName: string, arts: readonly T[]): T | undefined {
	const scene = key(sceneName);
	let best: { art: T; length: number } | undefined;
	for (const art of arts) {
		const place = key(art.targetName);
		if (place === '') continue;
		if (place === scene) return art;
		if (scene.startsWith(place) && SEPARATOR.test(scene.slice(place.length)) && (!best || place.length > best.length))
			best = { art, length: place.length };
	}
	return best?.art;
}
