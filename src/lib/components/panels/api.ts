/**
 * The side panels' calls to the API (state, journal, documents, session settings, stage images, the players at the table).
 * Every answer is checked before use with the API's own schemas (`$lib/types`); a failure is an
 * `ApiRequestError` with the API's error code, which `describeApiError` words for the reader.
 */
import * as v from 'valibot';
import {
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
import { AlternativesSchema, RerolledSchema, UndoneSchema, type AlternativesDto, type RerolledDto, type UndoneDto } from '../../types/api';
import { LoadedSaveSchema, SaveListSchema, SaveSchema, type LoadedSaveDto, type SaveDto } from '../../types/saves';
import type { ImageTarget } from '../../types/events';
import type { ProviderName } from '../../types/settings';
import { InvitationCreatedSchema, MembersSchema, type InvitationCreatedDto, type MembersDto, type TurnMode } from '../../types/members';
import { apiRequestError, networkError, shapeError } from './api-errors';

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
	/** Takes the last turn back with every record it wrote. */
	undo(turnId: string, idempotencyKey: string): Promise<UndoneDto>;
	/** Takes the last turn back and sends its line again, or `text` (an edit). */
	reroll(turnId: string, idempotencyKey: string, text?: string): Promise<RerolledDto>;
	/** The replies to the line turn `turnId` answered (swipes), oldest first. */
	alternatives(turnId: string): Promise<AlternativesDto>;
	/** Another reply to that line; the one on screen is kept as an alternative. */
	newAlternative(turnId: string, idempotencyKey: string): Promise<RerolledDto>;
	/** Puts alternative `altId` on screen, with its records. */
	chooseAlternative(turnId: string, altId: string): Promise<AlternativesDto>;
	saves(): Promise<SaveDto[]>;
	/** `at`: the line being read (`PlayState.readingAt`), where a load of the save opens. */
	save(request: { name?: string; quick: boolean; at?: string }): Promise<SaveDto>;
	/** Loads a save as a new session; the answer names it. */
	load(saveId: string): Promise<LoadedSaveDto>;
	deleteSave(saveId: string): Promise<void>;
	/** Play together: who sits at the table, the turn order and whose turn it is. */
	members(): Promise<MembersDto>;
	/** The owner's new invitation link. */
	invite(): Promise<InvitationCreatedDto>;
	/** The owner removes a player, or a player leaves (their own id). */
	removeMember(userId: string): Promise<void>;
	setTurnMode(turnMode: TurnMode): Promise<SessionDto>;
	/** Round order: how long a seat may keep the table waiting before the owner may skip it. */
	setSkipAfter(skipAfterSeconds: number): Promise<SessionDto>;
	/** The seat whose turn it is passes; the owner skips `seat`. */
	pass(seat?: number): Promise<MembersDto>;
	/** Play together: takes back one's own line while it waits, queued. */
	takeBack(turnId: string): Promise<void>;
}

/** Journal entries per "load more". */
const JOURNAL_PAGE = 30;

export function panelClient(sessionId: string, fetcher: typeof fetch = fetch): PanelClient {
	const base = `/api/v1/sessions/${encodeURIComponent(sessionId)}`;
	async function call<S extends v.GenericSchema>(schema: S, path: string, init: RequestInit = {}): Promise<v.InferOutput<S>> {
		let res: Response;
		try {
			res = await fetcher(base + path, {
				...init,
				headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}) }
			});
		} catch (err) {
			throw networkError(err);
		}
		if (!res.ok) throw await apiRequestError(res);
		const data: unknown = await res.json().catch(() => undefined);
		const parsed = v.safeParse(schema, data);
		if (!parsed.success) throw shapeError(res.status);
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
		regenerate: (target, name) => call(ImageOrderSchema, '/images/regenerate', { method: 'POST', body: JSON.stringify({ target, name }) }),
		undo: (turnId, idempotencyKey) =>
			call(UndoneSchema, `/turns/${encodeURIComponent(turnId)}/undo`, { method: 'POST', body: JSON.stringify({ idempotencyKey }) }),
		reroll: (turnId, idempotencyKey, text) =>
			call(RerolledSchema, `/turns/${encodeURIComponent(turnId)}/reroll`, {
				method: 'POST',
				body: JSON.stringify(text === undefined ? { idempotencyKey } : { idempotencyKey, text })
			}),
		alternatives: (turnId) => call(AlternativesSchema, `/turns/${encodeURIComponent(turnId)}/alternatives`),
		newAlternative: (turnId, idempotencyKey) =>
			call(RerolledSchema, `/turns/${encodeURIComponent(turnId)}/alternatives`, {
				method: 'POST',
				body: JSON.stringify({ idempotencyKey })
			}),
		chooseAlternative: (turnId, altId) =>
			call(AlternativesSchema, `/turns/${encodeURIComponent(turnId)}/alternatives/${encodeURIComponent(altId)}/choose`, { method: 'POST' }),
		saves: async () => (await call(SaveListSchema, '/saves')).saves,
		save: (request) => call(SaveSchema, '/saves', { method: 'POST', body: JSON.stringify(request) }),
		load: (saveId) => call(LoadedSaveSchema, `/saves/${encodeURIComponent(saveId)}/load`, { method: 'POST' }),
		deleteSave: (saveId) => call(v.undefined(), `/saves/${encodeURIComponent(saveId)}`, { method: 'DELETE' }),
		members: () => call(MembersSchema, '/members'),
		invite: () => call(InvitationCreatedSchema, '/invitations', { method: 'POST', body: '{}' }),
		removeMember: (userId) => call(v.undefined(), `/members/${encodeURIComponent(userId)}`, { method: 'DELETE' }),
		setTurnMode: (turnMode) => call(SessionSchema, '', { method: 'PATCH', body: JSON.stringify({ turnMode }) }),
		setSkipAfter: (skipAfterSeconds) => call(SessionSchema, '', { method: 'PATCH', body: JSON.stringify({ skipAfterSeconds }) }),
		pass: (seat) => call(MembersSchema, '/pass', { method: 'POST', body: JSON.stringify(seat === undefined ? {} : { seat }) }),
		takeBack: async (turnId) => {
			await call(v.unknown(), `/turns/${encodeURIComponent(turnId)}/cancel`, { method: 'POST' });
		}
	};
}
