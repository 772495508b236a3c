/** Test-data factories for the play screen's client state. */
import * as devalue from 'devalue';
import { PlayState } from '../../../src/lib/play/play.svelte';
import { translator } from '../../../src/lib/i18n/all-languages';
import { EMPTY_STAGE, type MessageCue, type StageCue } from '../../../src/lib/adv';
import type { PlayView } from '../../../src/lib/play/types';
import type { LogPageDto, MessageDto } from '../../../src/lib/types/log';
import type { FrameScheduler } from '../../../src/lib/play/story.svelte';

/** A page of the play log: nothing in it unless given. */
export function logPage(overrides: Partial<LogPageDto> = {}): LogPageDto {
	return { messages: [], cues: [], stageBefore: EMPTY_STAGE, images: { characters: [], scenes: [] }, ...overrides };
}

export function view(overrides: Partial<Omit<PlayView, 'log'>> & { log?: Partial<LogPageDto> } = {}): PlayView {
	return {
		activeTurn: null,
		lastTurn: null,
		queued: [],
		lastEventId: 0,
		choices: null,
		titleCard: null,
		...overrides,
		log: logPage(overrides.log)
	};
}

const CREATED_AT = '2026-01-01T00:00:00.000Z';

export function gm(id: number, turnId: string, body: string): MessageDto {
	return { id, role: 'gm', speaker: null, body, turnId, createdAt: CREATED_AT };
}

export function player(id: number, turnId: string, body: string): MessageDto {
	return { id, role: 'player', speaker: null, body, turnId, createdAt: CREATED_AT };
}

export function cue(messageId: number, c: StageCue, ord = 0): MessageCue {
	return { messageId, paragraph: c.paragraph, ord, cue: c };
}

/** A Map-backed localStorage. */
export function memoryStorage(): { getItem(k: string): string | null; setItem(k: string, v: string): void; data: Map<string, string> } {
	const data = new Map<string, string>();
	return { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), data };
}

/** A clock the test advances by hand: `run(ms)` fires the pending frame `ms` after the last one. */
export function manualFrames(): FrameScheduler & { run(ms: number): void; pending(): number } {
	let queue: ((now: number) => void)[] = [];
	let now = 0;
	return {
		request: (cb) => void queue.push(cb),
		run(ms) {
			now += ms;
			const due = queue;
			queue = [];
			for (const cb of due) cb(now);
		},
		pending: () => queue.length
	};
}

export function playState(
	v: PlayView,
	fetchLog: (after: number) => Promise<LogPageDto> = async () => logPage(),
	warnings: string[] = []
): PlayState {
	return new PlayState({ sessionId: 'sess', view: v, llmConfigured: true, t: translator('en'), fetchLog, warn: (m) => warnings.push(m) });
}

/** A form action's answer, as SvelteKit sends it to an enhanced form. */
export type ActionAnswer = { type: 'redirect'; location: string } | { type: 'failure'; status: number; data: Record<string, unknown> };

export interface FormRequest {
	url: string;
	form: URLSearchParams;
	answer(result: ActionAnswer): void;
}

/**
 * The page's form actions for a component test, in place of the server: `fetch` as `use:enhance` calls
 * it. Each request waits until the test answers it, so the test sees what the form does meanwhile.
 */
export function formActions(): { fetch: typeof fetch; requests: FormRequest[] } {
	const requests: FormRequest[] = [];
	const fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
		new Promise((resolve) => {
			requests.push({
				url: input instanceof Request ? input.url : String(input),
				form: new URLSearchParams(init?.body instanceof URLSearchParams ? init.body : undefined),
				answer: (result) =>
					resolve(
						Response.json(
							result.type === 'redirect'
								? { type: 'redirect', status: 303, location: result.location }
								: { type: 'failure', status: result.status, data: devalue.stringify(result.data) }
						)
					)
			});
		});
	return { fetch, requests };
}
