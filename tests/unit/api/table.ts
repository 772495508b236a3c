/** Test-data factories for play together through the API: a session, its invitation links, users and a seated table. */
import { expect } from 'vitest';
import { apiHarness, type ApiHarness, type Caller } from './client';
import { bodyOf, Session } from './shapes';
import { controlSchema, newId } from '../../../src/lib/server/db';
import type { AuthUser } from '../../../src/lib/server/auth';
import { InvitationAcceptedSchema, InvitationCreatedSchema } from '../../../src/lib/types/members';

let keySeq = 0;
/** A fresh idempotency key per call. */
export const key = () => `members-key-${String(++keySeq).padStart(6, '0')}`;

export async function newSession(api: Caller): Promise<string> {
	const res = await api.post('/api/v1/sessions', { title: 'The harbour' });
	expect(res.status).toBe(201);
	return (await bodyOf(res, Session)).id;
}

export async function invite(api: Caller, id: string, body: Record<string, unknown> = {}) {
	const res = await api.post(`/api/v1/sessions/${id}/invitations`, body);
	expect(res.status).toBe(201);
	return bodyOf(res, InvitationCreatedSchema);
}

/** Users made straight in the control database: no password to hash (twenty scrypt runs would only slow the test). */
export async function quickUsers(app: ApiHarness['app'], n: number): Promise<AuthUser[]> {
	const made: AuthUser[] = [];
	for (let i = 0; i < n; i++) {
		const user: AuthUser = { id: newId(), name: `guest${i}`, isAdmin: false, tier: 'free' };
		await app.control.db.insert(controlSchema.users).values({ ...user, passwordHash: '', createdAt: Date.now() });
		made.push(user);
	}
	return made;
}

/** `accessCheckMs`: how often the session feed checks its viewers by itself (a long one shows what ends streams sooner). */
export function tableHarness(accessCheckMs?: number): Promise<ApiHarness> {
	return apiHarness(accessCheckMs ? { app: { overrides: { eventFeeds: { accessCheckMs } } } } : {});
}

/** Alice's session with Bob seated as Mira, in the harness `hh`. */
export async function seatBob(hh: ApiHarness) {
	const { as, alice, bob } = hh;
	const id = await newSession(as(alice));
	const link = await invite(as(alice), id);
	const joined = await as(bob).post(`/api/v1/invitations/${link.token}/accept`, { character: { name: 'Mira', look: 'a grey cloak' } });
	expect(joined.status).toBe(200);
	expect(await bodyOf(joined, InvitationAcceptedSchema)).toEqual({ sessionId: id, seat: 2 });
	return { ...hh, id, link };
}

/** Seats `users` at session `id` through a fresh link, each under a character of their own name. */
export async function seatMore(hh: Pick<ApiHarness, 'as' | 'alice'>, id: string, users: readonly AuthUser[]): Promise<void> {
	const link = await invite(hh.as(hh.alice), id);
	for (const u of users) expect((await hh.as(u).post(`/api/v1/invitations/${link.token}/accept`, {})).status).toBe(200);
}
