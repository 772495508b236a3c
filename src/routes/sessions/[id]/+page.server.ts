import { error, fail, redirect } from '@sveltejs/kit';
import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { getApp, type App as Kantera } from '$lib/server/app';
import { formText, requireUser } from '$lib/server/hooks';
import { NotYourTurnError, PlaySessionNotFoundError } from '$lib/server/sessions';
import {
	ApiError,
	cancelTurn,
	DocumentEditBody,
	editDocument,
	IdString,
	postTurn,
	recordsView,
	sessionFor,
	withSession
} from '$lib/server/api';
import { QuotaExceededError, TurnError } from '$lib/server/turn';
import { loadPlayView } from '$lib/server/play';
import { hasControlCharacter } from '$lib/server/validation';
import type { TurnFormError } from '$lib/play';
import type { Actions, PageServerLoad } from './$types';

/** Bytes of randomness in a form's idempotency key (hex, so twice as many characters). */
const KEY_BYTES = 16;

/** A fresh key per rendered form: the same form sent twice posts the same key, and one turn starts. */
function formKey(): string {
	return `turn-${randomBytes(KEY_BYTES).toString('hex')}`;
}

function notFound(): never {
	// Someone else's session is indistinguishable from one that does not exist.
	error(404, { message: 'There is no play session at this address.', code: 'NOT_FOUND' });
}

/** `?doc=<id>` opens a document in the Documents drawer without JavaScript; anything else opens none. */
const DocQuery = v.object({ doc: v.optional(IdString) });

export const load: PageServerLoad = async ({ locals, params, url }) => {
	const user = requireUser(locals, url);
	const app = await getApp();
	const query = v.safeParse(DocQuery, { doc: url.searchParams.get('doc') ?? undefined });
	const docId = query.success ? query.output.doc : undefined;
	try {
		const { session: s, role, seat, players } = await sessionFor(app, user, params.id, 'member');
		app.scheduler.visit(s.id);
		const [view, records] = await app.sessions.use(
			s.id,
			async (db) =>
				[await loadPlayView(db.db, s.id, { id: user.id, language: locals.language ?? 'en' }), await recordsView(db.db, docId)] as const
		);
		return {
			// The play page is the whole screen: the site's header and column stay out of it.
			fullscreen: true,
			session: { id: s.id, title: s.title, language: s.language, createdAt: s.createdAt.toISOString() },
			// Play together: the reader's place at the table (the owner's tools stay the owner's).
			seat: { role, seat, userId: user.id, together: players > 0 },
			view,
			records: { ...records, editing: records.document !== null && url.searchParams.has('edit') },
			llmConfigured: app.config.llm.configured,
			maxInputChars: app.config.engine.maxInputChars,
			idempotencyKey: formKey(),
			retryKey: formKey()
		};
	} catch (err) {
		if (err instanceof PlaySessionNotFoundError) notFound();
		throw err;
	}
};

function turnFailure(err: unknown, text: string) {
	const failed = (status: number, e: TurnFormError) => fail(status, { turn: { text, error: e } });
	if (err instanceof NotYourTurnError) return failed(409, { code: 'notYourTurn', currentSeat: err.currentSeat });
	if (err instanceof QuotaExceededError) return failed(429, { code: 'quota', resetsAt: err.resetsAt.toISOString() });
	if (err instanceof TurnError) {
		if (err.code === 'conflict') return failed(409, { code: 'conflict' });
		if (err.code === 'not_configured') return failed(503, { code: 'notConfigured' });
		if (err.code === 'invalid_input') return failed(400, { code: 'invalid', message: err.message });
	}
	if (err instanceof PlaySessionNotFoundError || (err instanceof ApiError && err.status === 404)) notFound();
	throw err;
}

async function sendTurn(app: Kantera, locals: App.Locals, url: URL, sessionId: string, data: FormData) {
	const user = requireUser(locals, url);
	const text = formText(data, 'text');
	const trimmed = text.trim();
	if (trimmed === '') return fail(400, { turn: { text, error: { code: 'empty' } satisfies TurnFormError } });
	if (hasControlCharacter(text)) return fail(400, { turn: { text, error: { code: 'controlCharacter' } satisfies TurnFormError } });
	const max = app.config.engine.maxInputChars;
	if (trimmed.length > max)
		return fail(400, { turn: { text, error: { code: 'tooLong', length: trimmed.length, max } satisfies TurnFormError } });
	try {
		await withSession(
			app,
			user,
			sessionId,
			(s, _session, access) =>
				postTurn(
					app,
					user,
					s,
					{ text: trimmed, idempotencyKey: formText(data, 'idempotencyKey'), whisper: formText(data, 'whisper') === 'on' },
					access
				),
			'member'
		);
	} catch (err) {
		return turnFailure(err, text);
	}
	// Post/redirect/get: a reload does not resend, and the page shows the turn from the log.
	redirect(303, `/sessions/${sessionId}`);
}

export const actions = {
	/** Plays a turn (the input box and the retry button); without JavaScript the page reloads to follow it. */
	turn: async ({ request, locals, params, url }) => sendTurn(await getApp(), locals, url, params.id, await request.formData()),
	/** A document edit from the Documents drawer without JavaScript (the browser's panel uses PUT …/documents/{id}). */
	document: async ({ request, locals, params, url }) => {
		const user = requireUser(locals, url);
		const app = await getApp();
		const data = await request.formData();
		const id = v.safeParse(IdString, formText(data, 'id'));
		// A form sends a textarea's line breaks as CRLF; the records keep LF.
		const edit = v.safeParse(DocumentEditBody, { title: formText(data, 'title'), body: formText(data, 'body').replace(/\r\n?/g, '\n') });
		if (!id.success) notFound();
		if (!edit.success) return fail(400, { document: { id: id.output, message: edit.issues[0].message } });
		try {
			await withSession(app, user, params.id, (s) => editDocument(s, id.output, edit.output));
		} catch (err) {
			if (err instanceof PlaySessionNotFoundError || (err instanceof ApiError && err.status === 404)) notFound();
			throw err;
		}
		redirect(303, `/sessions/${params.id}?doc=${id.output}#documents`);
	},
	/** The stop button: cancels the running turn, which then writes nothing. */
	cancel: async ({ request, locals, params, url }) => {
		const user = requireUser(locals, url);
		const app = await getApp();
		const turnId = formText(await request.formData(), 'turnId');
		try {
			await withSession(app, user, params.id, (s) => cancelTurn(app, s, turnId));
		} catch (err) {
			if (err instanceof ApiError && err.status === 409) return fail(409, { cancel: { code: 'finished' as const } });
			// Play together: a player's stop (the button is the owner's; an old page may still show it).
			if (err instanceof ApiError && err.status === 403) return fail(403, { cancel: { code: 'ownerOnly' as const } });
			if (err instanceof PlaySessionNotFoundError || (err instanceof ApiError && err.status === 404)) notFound();
			throw err;
		}
		redirect(303, `/sessions/${params.id}`);
	}
} satisfies Actions;
