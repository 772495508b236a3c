/**
 * The backlog's calls to the API, with the answers checked before use (outside data, even from our
 * own server: a proxy error page or an older server must fail clearly, not render garbage).
 */
import * as v from 'valibot';
import type { BacklogPageDto } from '../../types/panels';

const Figure = v.nullable(v.object({ character: v.string(), expression: v.optional(v.string()) }));
const StageSchema = v.object({
	background: v.nullable(v.object({ scene: v.string() })),
	slots: v.object({ left: Figure, center: Figure, right: Figure }),
	speaker: v.nullable(v.string())
});
const CueSchema = v.object({
	paragraph: v.number(),
	action: v.picklist(['enter', 'exit', 'move', 'expression', 'background']),
	character: v.optional(v.string()),
	slot: v.optional(v.picklist(['left', 'center', 'right'])),
	expression: v.optional(v.string()),
	scene: v.optional(v.string())
});
const ImageSchema = v.object({ name: v.string(), url: v.nullable(v.string()) });
export const BacklogPageSchema = v.object({
	messages: v.array(
		v.object({
			id: v.number(),
			role: v.picklist(['player', 'gm', 'operator', 'system']),
			speaker: v.nullable(v.string()),
			body: v.string(),
			turnId: v.nullable(v.string()),
			createdAt: v.string()
		})
	),
	cues: v.array(v.object({ messageId: v.number(), paragraph: v.number(), ord: v.number(), cue: CueSchema })),
	stageBefore: StageSchema,
	nextBefore: v.optional(v.number()),
	images: v.object({ characters: v.array(ImageSchema), scenes: v.array(ImageSchema) })
});

/** A failed API call: the status (0 when the network failed) for the UI to word. */
export class BacklogLoadError extends Error {
	constructor(
		readonly status: number,
		message: string
	) {
		super(message);
		this.name = 'BacklogLoadError';
	}
}

export interface PageQuery {
	before?: number | undefined;
	after?: number | undefined;
	limit: number;
}

export async function fetchBacklogPage(fetcher: typeof fetch, sessionId: string, q: PageQuery, signal?: AbortSignal): Promise<BacklogPageDto> {
	const params = new URLSearchParams({ limit: String(q.limit) });
	if (q.before !== undefined) params.set('before', String(q.before));
	if (q.after !== undefined) params.set('after', String(q.after));
	let res: Response;
	try {
		res = await fetcher(`/api/v1/sessions/${encodeURIComponent(sessionId)}/backlog?${params.toString()}`, { headers: { accept: 'application/json' }, signal });
	} catch (err) {
		if (signal?.aborted) throw err;
		throw new BacklogLoadError(0, err instanceof Error ? err.message : String(err));
	}
	if (!res.ok) throw new BacklogLoadError(res.status, `The backlog could not be loaded (HTTP ${res.status}).`);
	const parsed = v.safeParse(BacklogPageSchema, await res.json());
	if (!parsed.success) throw new BacklogLoadError(res.status, 'The server answered the backlog with an unexpected shape.');
	return parsed.output;
}
