/**
 * What an isolate host's Worker tells the app about where a request runs, in `platform.ctx.kantera`
 * (bin/cloudflare-worker.js writes it; a client never can): on the Worker that takes any request, or in
 * a play session's own object (a Durable Object), with the object's alarm and what the object keeps
 * between requests. Absent on the Node, Bun and Deno servers.
 */
import * as v from 'valibot';
import { isSessionId } from '../db';

const Fn = v.function();
const SessionId = v.custom<string>(isSessionId, 'must be a session id');

const WorkerHost = v.object({ host: v.literal('worker'), handOff: Fn });
const SessionHost = v.object({
	host: v.literal('session'),
	sessionId: SessionId,
	/** The object's own memory: the app keeps what the object holds between requests under it. */
	slot: v.custom<object>((x) => typeof x === 'object' && x !== null, 'must be an object'),
	/** Not a page: the object's alarm fired, or another isolate handed it its session's work. */
	task: v.optional(v.picklist(['alarm', 'resume'])),
	alarm: v.object({ set: Fn }),
	handOff: Fn
});
const Platform = v.looseObject({ ctx: v.looseObject({ kantera: v.variant('host', [WorkerHost, SessionHost]) }) });

/** Has another session's object take up that session's work. */
export type HandOff = (sessionId: string) => Promise<void>;

export type IsolateHost =
	| { host: 'worker'; handOff: HandOff }
	| {
			host: 'session';
			sessionId: string;
			slot: object;
			task: 'alarm' | 'resume' | undefined;
			setAlarm: (at: number) => Promise<void>;
			handOff: HandOff;
	  };

/** The isolate host a request runs on, or undefined on a server (or for a platform that says nothing). */
export function isolateHostOf(platform: unknown): IsolateHost | undefined {
	const parsed = v.safeParse(Platform, platform);
	if (!parsed.success) return undefined;
	const k = parsed.output.ctx.kantera;
	const handOff: HandOff = async (sessionId) => {
		await k.handOff(sessionId);
	};
	if (k.host === 'worker') return { host: 'worker', handOff };
	const set = k.alarm.set;
	return {
		host: 'session',
		sessionId: k.sessionId,
		slot: k.slot,
		task: k.task,
		setAlarm: async (at) => {
			await set(at);
		},
		handOff
	};
}
