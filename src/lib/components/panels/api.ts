/**
 * The side panels' calls to the API (state, journal, documents, session settings). Every answer is
 * checked before use; a failure carries the server's own message (they are written for players).
 */
import * as v from 'valibot';
import type { DocumentDto, DocumentInfoDto, JournalEntryDto, StateDto } from '../../types/api';

export class PanelApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string
	) {
		super(message);
		this.name = 'PanelApiError';
	}
}

const ErrorBody = v.object({ message: v.string(), code: v.string() });
const StateSchema = v.object({ state: v.record(v.string(), v.unknown()), version: v.number() });
const Entry = v.object({ id: v.number(), body: v.string(), createdAt: v.string() });
const JournalPage = v.object({ entries: v.array(Entry), nextBefore: v.optional(v.number()) });
const DocInfo = v.object({ id: v.number(), title: v.string(), createdAt: v.string(), updatedAt: v.string(), sealed: v.optional(v.literal(true)) });
const DocList = v.object({ documents: v.array(DocInfo) });
const Doc = v.object({ ...DocInfo.entries, body: v.string() });
const Provider = v.picklist(['openai', 'anthropic']);
const Llm = v.variant('configured', [v.object({ configured: v.literal(true), provider: Provider, model: v.string() }), v.object({ configured: v.literal(false), hint: v.string() })]);
const SessionSchema = v.object({
	id: v.string(),
	title: v.string(),
	language: v.picklist(['ja', 'en']),
	createdAt: v.string(),
	updatedAt: v.string(),
	provider: v.optional(Provider),
	model: v.optional(v.string()),
	lastEventId: v.number(),
	llm: Llm,
	handoffTurnId: v.optional(v.string())
});

const ImageEntry = v.object({ name: v.string(), url: v.nullable(v.string()) });
const BacklogImages = v.object({ images: v.object({ characters: v.array(ImageEntry), scenes: v.array(ImageEntry) }) });
const Regenerated = v.object({ orderId: v.number(), status: v.string() });

export type ImageTarget = 'npc' | 'scene';
export interface StageImageList {
	characters: { name: string; url: string | null }[];
	scenes: { name: string; url: string | null }[];
}

/** The session as the settings panel reads it (SessionDto; JSON leaves absent provider/model out). */
export type SessionView = v.InferOutput<typeof SessionSchema>;

export interface PanelClient {
	state(): Promise<StateDto>;
	journal(before?: number): Promise<{ entries: JournalEntryDto[]; nextBefore?: number | undefined }>;
	documents(): Promise<DocumentInfoDto[]>;
	document(id: number): Promise<DocumentDto>;
	saveDocument(id: number, edit: { title?: string; body: string }): Promise<DocumentDto>;
	session(): Promise<SessionView>;
	switchModel(choice: { provider: 'openai' | 'anthropic'; model: string }): Promise<SessionView>;
	/** Registered characters and places (their current image, or null while a placeholder shows). */
	images(): Promise<StageImageList>;
	/** Orders a new sprite or background; it arrives as an `image.ready` event. Metered. */
	regenerate(target: ImageTarget, name: string): Promise<{ orderId: number; status: string }>;
}

/** Journal entries per "load more". */
export const JOURNAL_PAGE = 30;

export function panelClient(sessionId: string, fetcher: typeof fetch = fetch): PanelClient {
	const base = `/api/v1/sessions/${encodeURIComponent(sessionId)}`;
	async function call<S extends v.GenericSchema>(schema: S, path: string, init: RequestInit = {}): Promise<v.InferOutput<S>> {
		let res: Response;
		try {
			res = await fetcher(base + path, { ...init, headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}) } });
		} catch (err) {
			throw new PanelApiError(0, 'NETWORK', err instanceof Error ? err.message : String(err));
		}
		const data: unknown = await res.json().catch(() => undefined);
		if (!res.ok) {
			const body = v.safeParse(ErrorBody, data);
			throw body.success ? new PanelApiError(res.status, body.output.code, body.output.message) : new PanelApiError(res.status, 'HTTP', `HTTP ${res.status}`);
		}
		const parsed = v.safeParse(schema, data);
		if (!parsed.success) throw new PanelApiError(res.status, 'SHAPE', 'The server answered with an unexpected shape.');
		return parsed.output;
	}
	return {
		state: () => call(StateSchema, '/state'),
		journal: (before) => call(JournalPage, `/journal/recent?limit=${JOURNAL_PAGE}${before === undefined ? '' : `&before=${before}`}`),
		documents: async () => (await call(DocList, '/documents')).documents,
		document: (id) => call(Doc, `/documents/${id}`),
		saveDocument: (id, edit) => call(Doc, `/documents/${id}`, { method: 'PUT', body: JSON.stringify(edit) }),
		session: () => call(SessionSchema, ''),
		switchModel: (choice) => call(SessionSchema, '', { method: 'PATCH', body: JSON.stringify(choice) }),
		// The backlog's newest page carries the image list; one message is the cheapest page.
		images: async () => (await call(BacklogImages, '/backlog?limit=1')).images,
		regenerate: (target, name) => call(Regenerated, '/images/regenerate', { method: 'POST', body: JSON.stringify({ target, name }) })
	};
}
