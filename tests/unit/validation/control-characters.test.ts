/**
 * Text from outside with a control character (other than TAB, LF, CR) is refused with a message that
 * names the field, and nothing is written: SQLite would otherwise store it cut short at a NUL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { apiHarness, type ApiHarness } from '../api/client';
import { bodyOf, ErrorBody, Session, SessionList } from '../api/shapes';
import { hasControlCharacter } from '../../../src/lib/server/validation';
import { createUser, createToken, AuthValidationError } from '../../../src/lib/server/auth';
import { startSession, PlaySessionValidationError } from '../../../src/lib/server/sessions';
import { importRecord, isRecordError } from '../../../src/lib/server/records';
import * as v from 'valibot';

const REFUSED = ['\u0000', '\u0001', '\u0008', '\u000b', '\u000c', '\u001b', '\u001f', '\u007f', '\u0085', '\u009f'];
const ALLOWED = ['\t', '\n', '\r', ' ', '\u00a0', '\u2028', '霧', '😀'];

let h: ApiHarness | undefined;
afterEach(async () => {
	await h?.cleanup();
	h = undefined;
});

describe('the rule', () => {
	it('refuses C0 (but TAB, LF, CR), DEL and C1; keeps everything else', () => {
		for (const c of REFUSED) expect(hasControlCharacter(`a${c}b`), JSON.stringify(c)).toBe(true);
		for (const c of ALLOWED) expect(hasControlCharacter(`a${c}b`), JSON.stringify(c)).toBe(false);
	});
});

describe('through the API', () => {
	it('a session title: 400 naming the field, nothing created or renamed', async () => {
		h = await apiHarness({ llm: false });
		const api = h.as(h.alice);
		for (const c of REFUSED) {
			const res = await api.post('/api/v1/sessions', { title: `Harbour${c} secret` });
			expect(res.status, JSON.stringify(c)).toBe(400);
			expect((await bodyOf(res, ErrorBody)).message).toMatch(/^title: The title contains a control character/);
		}
		expect((await bodyOf(await api.get('/api/v1/sessions'), SessionList)).sessions).toEqual([]);
		const s = await bodyOf(await api.post('/api/v1/sessions', { title: 'Harbour' }), Session);
		const patch = await api.patch(`/api/v1/sessions/${s.id}`, { title: 'Harbour\u0000 secret' });
		expect(patch.status).toBe(400);
		expect((await bodyOf(patch, ErrorBody)).message).toMatch(/title/);
		expect((await bodyOf(await api.get(`/api/v1/sessions/${s.id}`), Session)).title).toBe('Harbour');
	});

	it('turn input: 400 naming the field, no turn accepted', async () => {
		h = await apiHarness();
		const api = h.as(h.alice);
		const s = await bodyOf(await api.post('/api/v1/sessions', { title: 'Gate' }), Session);
		const res = await api.post(`/api/v1/sessions/${s.id}/turns`, {
			text: 'I open the gate\u0000 and tell the GM my secret',
			idempotencyKey: 'turn-nul-0001'
		});
		expect(res.status).toBe(400);
		const err = await bodyOf(res, ErrorBody);
		expect(err.code).toBe('INVALID_BODY');
		expect(err.message).toMatch(/^text: The text contains a control character/);
		expect(h.mock?.requests ?? []).toHaveLength(0);
		// The same key is still free: nothing was recorded under it.
		const ok = await api.post(`/api/v1/sessions/${s.id}/turns`, { text: 'I open the gate\tquietly.\r\n', idempotencyKey: 'turn-nul-0001' });
		expect(ok.status).toBe(202);
	});

	it('a document edit: 400 naming the field, the document unchanged', async () => {
		h = await apiHarness({ llm: false });
		const api = h.as(h.alice);
		const s = await bodyOf(await api.post('/api/v1/sessions', { title: 'Docs', world: 'sword-and-sorcery' }), Session);
		const list = v.parse(
			v.object({ documents: v.array(v.object({ id: v.number() })) }),
			await (await api.get(`/api/v1/sessions/${s.id}/documents`)).json()
		);
		const id = list.documents[0]?.id;
		const path = `/api/v1/sessions/${s.id}/documents/${id}`;
		const before = await (await api.get(path)).json();
		const body = await api.put(path, { body: 'The north gate\u0000 is open.' });
		expect(body.status).toBe(400);
		expect((await bodyOf(body, ErrorBody)).message).toMatch(/^body: The body contains a control character/);
		const title = await api.put(path, { title: 'Gate\u001b[31m', body: 'x' });
		expect(title.status).toBe(400);
		expect((await bodyOf(title, ErrorBody)).message).toMatch(/^title: The title contains a control character/);
		expect(await (await api.get(path)).json()).toEqual(before);
		expect((await api.put(path, { body: 'Tabs\tand\r\nline breaks stay.' })).status).toBe(200);
	});
});

describe('the forms and the CLI (the modules they call)', () => {
	it('usernames, token names, session titles and imported records', async () => {
		h = await apiHarness({ llm: false });
		const { app } = h;
		await expect(createUser(app, { name: 'mal\u0000lory', password: 'correct horse battery' })).rejects.toSatisfy(
			(e) => e instanceof AuthValidationError && /The username contains a control character/.test(e.fields.name ?? '')
		);
		await expect(createToken(app, h.alice.id, 'laptop\u0007')).rejects.toSatisfy(
			(e) => e instanceof AuthValidationError && /The token name contains/.test(e.fields.name ?? '')
		);
		await expect(startSession(app, { ownerId: h.alice.id, title: '\u000bHarbour', language: 'en' })).rejects.toSatisfy(
			(e) => e instanceof PlaySessionValidationError && /The title contains/.test(e.fields.title ?? '')
		);
		const id = (await bodyOf(await h.as(h.alice).post('/api/v1/sessions', { title: 'Import' }), Session)).id;
		await expect(
			app.sessions.use(id, (s) => s.write((tx) => importRecord(tx, { kind: 'journal', body: 'The bell\u0000 rang.' })))
		).rejects.toSatisfy(
			(e) => isRecordError(e, 'invalid_input') && e instanceof Error && /body contains a control character/.test(e.message)
		);
	});
});
