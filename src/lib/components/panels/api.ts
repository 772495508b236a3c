/**
 * The side panels' calls to the API (state, journal, documents, session settings, stage images).
 * Every answer is checked before use with the API's own schemas (`$lib/types`); a failure carries the
 * server's own message (they are written for players).
 */
import * as v from 'valibot';
import {
	ApiErrorBodySchema,
	DocumentListSchema,
	DocumentSchema,
	ImageOrderSchema,
	JournalPageSchema,
	SessionSchema,
	StateSchema,
	type DocumentDto,
	type DocumentInfoDto,
	type ImageOrderDto,
	type JournalPageDto,
	type SessionDto,
	type StateDto
} from '../../types/api';
import { StageImagesSchema, type StageImagesDto } from '../../types/log';
import type { ImageTarget } from '../../types/events';
import type { ProviderName } from '../../types/settings';

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

export interface PanelClient {
	state(): Promise<StateDto>;
	journal(before?: number): Promise<JournalPageDto>;
	documents(): Promise<DocumentInfoDto[]>;
	document(id: number): Promise<DocumentDto>;
	saveDocument(id: number, edit: { title?: string; body: string }): Promise<DocumentDto>;
	session(): Promise<SessionDto>;
	switchModel(choice: { provider: ProviderName; model: string }): Promise<SessionDto>;
	/** Registered characters and places with their current image (null while a placeholder shows). */
	images(): Promise<StageImagesDto>;
	/** Orders a new sprite or background; it arrives as an `image.ready` event. Metered. */
	regenerate(target: ImageTarget, name: string): Promise<ImageOrderDto>;
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
			const body = v.safeParse(ApiErrorBodySchema, data);
			throw body.success ? new PanelApiError(res.status, body.output.code, body.output.message) : new PanelApiError(res.status, 'HTTP', `HTTP ${res.status}`);
		}
		const parsed = v.safeParse(schema, data);
		if (!parsed.success) throw new PanelApiError(res.status, 'SHAPE', 'The server answered with an unexpected shape.');
		return parsed.output;
	}
	return {
		state: () => call(StateSchema, '/state'),
		journal: (before) => call(JournalPageSchema, `/journal/recent?limit=${JOURNAL_PAGE}${before === undefined ? '' : `&before=${before}`}`),
		documents: async () => (await call(DocumentListSchema, '/documents')).documents,
		document: (id) => call(DocumentSchema, `/documents/${id}`),
		saveDocument: (id, edit) => call(DocumentSchema, `/documents/${id}`, { method: 'PUT', body: JSON.stringify(edit) }),
		session: () => call(SessionSchema, ''),
		switchModel: (choice) => call(SessionSchema, '', { method: 'PATCH', body: JSON.stringify(choice) }),
		images: () => call(StageImagesSchema, '/images'),
		regenerate: (target, name) => call(ImageOrderSchema, '/images/regenerate', { method: 'POST', body: JSON.stringify({ target, name }) })
	};
}
