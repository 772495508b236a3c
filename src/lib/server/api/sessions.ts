/**
 * Play sessions as the API sees them: the index row (control DB) plus the session's own settings
 * (language, provider, model, pinned mission) in its database. Owner-checked everywhere: another
 * user's session is a 404, exactly like one that does not exist.
 */
import * as v from 'valibot';
import {
	deletePlaySession,
	MAX_SKIP_AFTER_SECONDS,
	renamePlaySession,
	startSession,
	TitleSchema,
	type PlaySession,
	type SessionAccess
} from '../sessions';
import { isWorldId } from '../worlds';
import { isPresetId, playPreset } from '../presets';
import { switchModel, unfinishedTurnIds } from '../turn';
import { readSettings, type SessionSettings } from '../session-setup';
import { lastEventId } from '../events';
import type { SessionDb } from '../db';
import { MAX_NAME_CHARS } from '../records';
import type { AuthUser } from '../auth';
import type { App as Kantera } from '../app';
import type { Config } from '../config';
import type { SessionDto } from '../../types/api';
import { LanguageSchema, ProviderNameSchema, type Language, type ProviderName } from '../../types/settings';
import { ApiError, badRequest } from './errors';
import { sessionFor, type SessionNeed } from './access';
import { changeTurnRules } from './members';
import { TurnModeSchema } from '../../types/members';
import { llmStatus, providerProblem } from './llm-status';
import { sessionSummaryDto } from './dto';
import { checkModelChoice, fixedModel, planOf } from '../tiers';

const ModelSchema = v.pipe(
	v.string('model must be a string'),
	v.trim(),
	v.minLength(1, 'model must not be empty'),
	v.maxLength(MAX_NAME_CHARS, `model has at most ${MAX_NAME_CHARS} characters`),
	v.regex(/^[\x21-\x7e]+$/, 'model must be printable ASCII without spaces')
);

const CreateSessionFields = v.strictObject({
	title: v.optional(TitleSchema),
	language: v.optional(LanguageSchema),
	/** An official world to start from (GET /api/v1/worlds lists them). */
	world: v.optional(v.pipe(v.string('world must be a string'), v.check(isWorldId, 'unknown world; GET /api/v1/worlds lists them'))),
	/** A preset to start from: an official world's id or an author's preset you can see (GET /api/v1/gallery). */
	preset: v.optional(
		v.pipe(
			v.string('preset must be a string'),
			v.check((id: string) => isPresetId(id), 'preset must be a preset id')
		)
	),
	provider: v.optional(ProviderNameSchema),
	model: v.optional(ModelSchema)
});

export const CreateSessionBody = v.pipe(
	CreateSessionFields,
	v.check((b) => b.world === undefined || b.preset === undefined, 'Send world or preset, not both.')
);

export const PatchSessionBody = v.pipe(
	v.strictObject({
		title: v.optional(TitleSchema),
		language: v.optional(LanguageSchema),
		provider: v.optional(ProviderNameSchema),
		model: v.optional(ModelSchema),
		turnMode: v.optional(TurnModeSchema),
		skipAfterSeconds: v.optional(
			v.pipe(
				v.number('skipAfterSeconds must be a number'),
				v.integer('skipAfterSeconds must be a whole number'),
				v.minValue(0, 'skipAfterSeconds must be at least 0'),
				v.maxValue(MAX_SKIP_AFTER_SECONDS, `skipAfterSeconds must be at most ${MAX_SKIP_AFTER_SECONDS}`)
			)
		)
	}),
	v.check(
		(b) => Object.values<unknown>(b).some((x) => x !== undefined),
		'Send at least one of title, language, provider, model, turnMode, skipAfterSeconds.'
	)
);

/** A new session's title when the client gives none. */
const DEFAULT_TITLE: Readonly<Record<Language, string>> = { ja: '新しいセッション', en: 'New session' };

type LlmChoice = Partial<Pick<SessionSettings, 'provider' | 'model'>>;

/**
 * The provider and model to store for a request, checked against what this server can reach.
 * A provider without a model keeps the session's current model when the provider is unchanged, or
 * takes the server default when it is the default provider; otherwise the model must be named
 * (model names are the provider's own, there is nothing safe to guess).
 */
function chooseLlm(cfg: Pick<Config, 'llm'>, current: LlmChoice, requested: { provider?: ProviderName; model?: string }): LlmChoice {
	if (requested.provider === undefined && requested.model === undefined) return {};
	const provider = requested.provider ?? current.provider;
	if (provider === undefined) {
		throw new ApiError(400, 'PROVIDER_UNAVAILABLE', cfg.llm.configured ? 'Name the provider for this model.' : cfg.llm.reason);
	}
	const problem = providerProblem(cfg, provider);
	if (problem) throw new ApiError(400, 'PROVIDER_UNAVAILABLE', problem);
	const model =
		requested.model ??
		(provider === current.provider ? current.model : undefined) ??
		(cfg.llm.configured && provider === cfg.llm.provider ? cfg.llm.model : undefined);
	if (model === undefined) throw badRequest(`Name the model to use with ${provider}.`, 'MODEL_REQUIRED');
	return { provider, model };
}

/** The owner's session, or a 404 (PlaySessionNotFoundError) for anything else; 403 for a member. */
export async function ownedSession(app: Kantera, user: AuthUser, id: string | undefined): Promise<PlaySession> {
	return (await sessionFor(app, user, id, 'owner')).session;
}

/**
 * Runs `fn` on the database of the user's session `id`, after the authorisation (`sessionFor`; the owner's by
 * default). The visit lets an isolate host resume the session's leftover work (the scheduler decides; a server
 * process does nothing).
 */
export async function withSession<T>(
	app: Kantera,
	user: AuthUser,
	id: string | undefined,
	fn: (s: SessionDb, session: PlaySession, access: SessionAccess) => Promise<T>,
	need: SessionNeed = 'owner'
): Promise<T> {
	const access = await sessionFor(app, user, id, need);
	app.scheduler.visit(access.session.id);
	return app.sessions.use(access.session.id, (s) => fn(s, access.session, access));
}

/** `access`: the user's place at a shared table; the model shown is the one the owner's tier plays. */
export async function sessionDto(
	app: Kantera,
	session: PlaySession,
	s: SessionDb,
	user: AuthUser,
	access?: SessionAccess
): Promise<SessionDto> {
	const settings = await readSettings(s.db, app.config);
	// What the free tier plays is what the screen shows, whatever the session had stored.
	const fixed = fixedModel(app.config, access?.owner.tier ?? user.tier);
	return {
		...sessionSummaryDto(session),
		provider: fixed?.provider ?? settings.provider,
		model: fixed?.model ?? settings.model,
		lastEventId: await lastEventId(s.db),
		llm: llmStatus(app.config),
		plan: await planOf(app.control.db, app.config, user),
		...(access ? { role: access.role } : {})
	};
}

export async function createSession(app: Kantera, user: AuthUser, body: v.InferOutput<typeof CreateSessionBody>): Promise<SessionDto> {
	// Pin the server's defaults now, so changing them later does not switch a campaign's model under it.
	checkModelChoice(app.config, user.tier, body);
	const fixed = fixedModel(app.config, user.tier);
	const defaults: LlmChoice =
		fixed ?? (app.config.llm.configured ? { provider: app.config.llm.provider, model: app.config.llm.model } : {});
	const choice = body.provider === undefined && body.model === undefined ? defaults : chooseLlm(app.config, defaults, body);
	// An official world is a preset too: both start through the presets module (access, copy, play count).
	const presetId = body.preset ?? body.world;
	if (presetId !== undefined) {
		const { session } = await playPreset(app, user, presetId, { title: body.title, language: body.language, llm: choice });
		return app.sessions.use(session.id, (s) => sessionDto(app, session, s, user));
	}
	const language = body.language ?? 'en';
	const { session } = await startSession(app, { ownerId: user.id, title: body.title ?? DEFAULT_TITLE[language], language, llm: choice });
	return app.sessions.use(session.id, (s) => sessionDto(app, session, s, user));
}

/**
 * Title, provider and model can change. A provider/model change in a session with history is a
 * handoff turn: the current model writes a checkpoint summary, then the new one takes over (see
 * turn/handoff.ts). The language is part of the pinned mission, which never changes under a
 * campaign, so a different language is refused.
 */
export async function updateSession(
	app: Kantera,
	user: AuthUser,
	id: string | undefined,
	body: v.InferOutput<typeof PatchSessionBody>
): Promise<SessionDto> {
	let session = await ownedSession(app, user, id);
	if (body.language !== undefined && body.language !== session.language) {
		throw new ApiError(
			409,
			'LANGUAGE_PINNED',
			"The language is part of the GM's pinned mission and can't change during a campaign; start a new session to play in another language."
		);
	}
	checkModelChoice(app.config, user.tier, body);
	return app.sessions.use(session.id, async (s) => {
		const current = await readSettings(s.db, app.config);
		// The free tier's model is fixed: asking for it again changes nothing.
		const choice = fixedModel(app.config, user.tier) ? {} : chooseLlm(app.config, current, body);
		if (body.title !== undefined) session = await renamePlaySession(app, user.id, session.id, body.title);
		await changeTurnRules(app, session, body);
		let handoffTurnId: string | undefined;
		if (choice.provider !== undefined && choice.model !== undefined) {
			const switched = await switchModel(app.config, s, user.id, { provider: choice.provider, model: choice.model });
			if (switched.switched === 'after_handoff') {
				handoffTurnId = switched.turnId;
				app.runner.kick(s.id);
			}
		}
		const dto = await sessionDto(app, session, s, user);
		return handoffTurnId ? { ...dto, handoffTurnId } : dto;
	});
}

/** Cancels the session's unfinished turn (best effort, so no runner keeps writing), then deletes it. */
export async function deleteSession(app: Kantera, user: AuthUser, id: string | undefined): Promise<void> {
	const session = await ownedSession(app, user, id);
	await app.sessions.use(session.id, async (s) => {
		for (const turnId of await unfinishedTurnIds(s.db)) await app.runner.cancel(s, turnId);
	});
	await deletePlaySession(app, user.id, session.id);
}
