/**
 * The secret-leak check of a world preset, browser-safe so the editor can run it as the author
 * types and the server can run the very same function when a preset is saved.
 *
 * A secret may list `markers`, the phrases that give it away; `findLeaks` reports every
 * player-visible field (what the player reads and what image prompts are built from) holding one.
 */

export interface Leak {
	/** Where the marker was found, e.g. `documents.setting.body` or `npcs[2].appearance`. */
	readonly field: string;
	readonly secret: string;
	readonly marker: string;
}

/** The fields the leak check reads, spelled out (not derived from the schema, which uses the check). */
export interface LeakCheckInput {
	readonly title: string;
	readonly tagline: string;
	readonly documents: Readonly<Record<'premise' | 'setting' | 'pc', { readonly title: string; readonly body: string }>>;
	readonly npcs: readonly { readonly name: string; readonly role: string; readonly appearance: string }[];
	readonly secrets: readonly { readonly key: string; readonly markers?: readonly string[] }[];
	readonly opening: {
		readonly scene: { readonly name: string; readonly description: string };
		readonly state: unknown;
		/** What the player reads before the first turn, and the other openings (as text or as rows). */
		readonly narration?: string;
		readonly alternatives?: string | readonly { readonly label: string; readonly narration: string }[];
	};
	/** Public facts about the world. */
	readonly tags?: string | readonly string[];
	readonly attribution?: { readonly creator: string; readonly version: string; readonly source: string | readonly string[] };
}

const asText = (value: string | readonly string[] | undefined): string => (typeof value === 'string' ? value : (value ?? []).join('\n'));

/** Every player-visible field of a preset, by name: what the player reads and what image prompts are built from. */
function playerVisibleFields(world: Omit<LeakCheckInput, 'secrets'>): [string, string][] {
	const fields: [string, string][] = [
		['title', world.title],
		['tagline', world.tagline]
	];
	for (const name of ['premise', 'setting', 'pc'] as const) {
		const doc = world.documents[name];
		fields.push([`documents.${name}.title`, doc.title], [`documents.${name}.body`, doc.body]);
	}
	world.npcs.forEach((npc, i) =>
		fields.push([`npcs[${i}].name`, npc.name], [`npcs[${i}].role`, npc.role], [`npcs[${i}].appearance`, npc.appearance])
	);
	fields.push(['opening.scene.name', world.opening.scene.name], ['opening.scene.description', world.opening.scene.description]);
	fields.push(['opening.state', typeof world.opening.state === 'string' ? world.opening.state : JSON.stringify(world.opening.state)]);
	fields.push(['opening.narration', world.opening.narration ?? '']);
	const others = world.opening.alternatives;
	fields.push([
		'opening.alternatives',
		typeof others === 'string' ? others : (others ?? []).map((o) => `${o.label}\n${o.narration}`).join('\n')
	]);
	fields.push(['tags', asText(world.tags)]);
	if (world.attribution) {
		const { creator, version, source } = world.attribution;
		fields.push(['attribution.creator', creator], ['attribution.version', version], ['attribution.source', asText(source)]);
	}
	return fields;
}

/** Secret markers found in player-visible fields (case-insensitive). Empty when the preset keeps its secrets. */
export function findLeaks(world: LeakCheckInput): Leak[] {
	const leaks: Leak[] = [];
	const fields = playerVisibleFields(world).map(([field, value]) => [field, value.toLowerCase()] as const);
	for (const secret of world.secrets) {
		for (const marker of secret.markers ?? []) {
			const needle = marker.trim().toLowerCase();
			if (needle === '') continue;
			for (const [field, value] of fields) if (value.includes(needle)) leaks.push({ field, secret: secret.key, marker });
		}
	}
	return leaks;
}
