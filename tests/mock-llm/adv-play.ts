/**
 * `adv-play`: a scripted ADV game for the play-screen e2e tests. The player's line picks the script
 * by a hashtag in it, so each test drives exactly the turn it needs:
 * - `#gate`   registers Bram and Ana and the North Gate, stages them (background, Bram left, Ana
 *             right) and answers with narration and tagged dialogue;
 * - `#harbour` sets the Harbour, Ana exits, Bram moves to the center and speaks;
 * - `#slow`   streams three paragraphs slowly (a reload lands mid-stream);
 * - `#fail`   breaks the upstream stream mid-reply the first time a given line is sent, and answers
 *             normally when the same line is sent again (the retry);
 * - `#perf`   streams deltas carrying `{{now}}` send-time stamps (latency measurement);
 * - `#lore`   looks the world up — recall, then read_document of "World Setting" in full — and
 *             narrates without quoting it (the spoiler-free play test checks the player sees none of it);
 * - `#leak`   refuses the request with an error whose message carries LEAK_MARKER and quotes the
 *             request's system text (the GM-only mission) back, as some providers do;
 * - `#live`   stages Bram's entrance (paragraph 1) before writing, then streams the reply slowly, so
 *             the screen shows him on stage, lit, while the reply still streams;
 * - `#livefail` the same, but the upstream breaks in the middle of Bram's line (the first time), once
 *             the test has released the line (`POST /mock/release/{the player's line}`): the test sees
 *             his entrance first, however slow the machine;
 * - `#choices` offers two choices with a short reply;
 * - `#music NAME` cues the music track NAME (or none, keep) and says so in one line;
 * - `#crossroads` brings Bram, Mira and Ana on (left, center, right) and offers three long choices (in
 *             Japanese when the line is Japanese), as a phone's screen finds hardest to fit;
 * - `#drawn`  streams two paragraphs over about 20 seconds (a reload, and the closed stream's end,
 *             land well before the commit);
 * - `#long`   streams a reply over about 90 seconds, a sentence every 3 s (a turn longer than an
 *             isolate host lets a request's work run on after its response);
 * - `#pages`  answers with one paragraph longer than the text window holds (it is read a page at a time);
 * - `#face`   registers Bram with a "stern" expression sprite and has him speak "(stern)" and then
 *             "(angry)", which has no sprite of its own;
 * - `#swipe`  goes somewhere else each time the same line is answered (SWIPE_PLACES in turn): the state's
 *             location and the scene differ, so each reply to the line has records of its own;
 * anything else is narrated back. Scenes that bring characters on first clear the stage of whoever
 * the opening left there (read from the context's "[Stage now]" line), as a GM would. OpenAI wire
 * only (the e2e server is configured with OPENAI_BASE_URL).
 */
import { lastTurnOfOpenAi, systemTextOf } from './request-shapes';
import type { MockHandler, RecordedRequest, ScriptedReply } from './types';

export const GATE_REPLY =
	'Fog hangs over the north gate.\n\n@Bram(stern): Halt! Who goes there?\n\n@Ana: Easy, Bram. It is only a traveller.';
export const HARBOUR_REPLY = 'The three of you walk down to the harbour.\n\n@Bram: The ships leave at dawn.';
export const SLOW_PARAGRAPHS = [
	'The lantern gutters as the wind turns.',
	'@Bram: Someone is coming up the road, and they are in a hurry.',
	'A rider in grey bursts out of the fog.'
];
export const SLOW_REPLY = SLOW_PARAGRAPHS.join('\n\n');
export const RETRY_REPLY = 'The fog lifts, and the road is quiet again.';
export const LORE_REPLY = 'The archivist looks up from her ledger and says nothing of what lies below.';
/** In the error message of `#leak`; must never reach the player. */
export const LEAK_MARKER = 'LEAK-MARKER-7f3a';
export const LIVE_PARAGRAPHS = [
	'The cellar door creaks open, and a lantern comes down the steps.',
	'@Bram: Who is down here? Show yourself, slowly, hands where I can see them.',
	'His boots stop on the last step.'
];
export const LIVE_REPLY = LIVE_PARAGRAPHS.join('\n\n');
export const CHOICES = ['Ask Bram about the gate', 'Walk away into the fog'];
export const CHOICES_REPLY = 'Bram leans on his spear and waits for your answer.';
export const MUSIC_REPLY = 'The musicians change their tune.';
export const CROSSROADS_REPLY = 'Three roads leave the crossroads, and all three of them are watching you.';
export const CROSSROADS_CHOICES = {
	en: [
		'Take the north road to the gate and ask Bram who passed tonight',
		'Follow Mira down the harbour steps to the boat leaving at dawn',
		'Stay at the crossroads with Ana and wait for the rider in grey'
	],
	ja: [
		'霧の北の道を進み、ブラムが守る門へ向かって、今夜そこを通った者のことを尋ねる',
		'ミラの後について港の石段を下り、夜明けに潮が変わる前に出る船へ急ぐ',
		'アナと十字路に残り、灰色の騎手が古い道を戻ってくるのをじっと待つ'
	]
} as const;
/** One paragraph, several pages long in the text window on any screen. */
export const PAGES_REPLY = Array.from(
	{ length: 12 },
	(_, i) => `Lantern ${i + 1} along the gate flickers in the damp night air as the fog rolls over the wall.`
).join(' ');
export const FACE_REPLY = '@Bram(stern): You again.\n\n@Bram(angry): I said, you again!';
/** `#swipe`: where each answer to the same line goes, in turn. */
export const SWIPE_PLACES = ['Lighthouse', 'Fish Market', 'Old Chapel'] as const;
export const swipeReply = (place: string): string => `You walk on to the ${place}.`;
/** `#drawn`: a frame a second for about 20 s. */
export const DRAWN_PARAGRAPHS = [
	'The rain comes down harder, and the torches hiss.',
	'@Bram: We wait until it passes. Nobody crosses the bridge tonight.'
];
export const DRAWN_REPLY = DRAWN_PARAGRAPHS.join('\n\n');
const DRAWN_FRAME_MS = 1_000;
const DRAWN_CHUNK_CHARS = 6;
/** `#long`: LONG_FRAMES sentences, one every LONG_FRAME_MS: about 90 s in all. */
export const LONG_FRAMES = 30;
const LONG_FRAME_MS = 3_000;
export const LONG_REPLY_END = 'At last the bell stops, and the gate swings open.';
/** Between two streamed frames of `#slow`: three paragraphs take a few seconds. */
const SLOW_FRAME_MS = 120;
const SLOW_CHUNK_CHARS = 4;
const PERF_DELTAS = 30;
/** `#live`: slow enough that a test sees the stage before the commit. */
const LIVE_FRAME_MS = 150;
/** `#livefail`: frames of Bram's line streamed before the upstream breaks. */
const LIVE_FAIL_AFTER_FRAMES = 12;
const PERF_FRAME_MS = 100;

/** The player's line this request answers: the last user message. */
function playerLine(request: RecordedRequest): string {
	const messages = request.openai?.messages ?? [];
	for (let i = messages.length - 1; i >= 0; i--) {
		const m = messages[i];
		if (m?.role === 'user') return m.content;
	}
	return '';
}

/** Whether this request carries tool results: the second call of a turn that used tools. */
function isFollowUp(request: RecordedRequest): boolean {
	return request.openai ? lastTurnOfOpenAi(request.openai).kind === 'tool' : false;
}

/** Who the opening left on stage, from the context's `[Stage now] … On stage: A (left), B (right).` line. */
function onStage(request: RecordedRequest): string[] {
	const system = systemTextOf(request) ?? '';
	const line = /\[Stage now\][^\n]*On stage: ([^\n]*)\./.exec(system)?.[1] ?? '';
	return [...line.matchAll(/([^,]+?) \((?:left|center|right)\)/g)].map((m) => (m[1] ?? '').trim()).filter((name) => name !== '');
}

/** Exit cues for whoever stands on stage, before the scene's own cues. */
function clearStage(request: RecordedRequest): Record<string, unknown>[] {
	return onStage(request).map((character) => ({ paragraph: 0, action: 'exit', character }));
}

function chunks(text: string, size: number): string[] {
	const points = [...text];
	const out: string[] = [];
	for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(''));
	return out;
}

function gate(followUp: boolean, request: RecordedRequest): ScriptedReply {
	if (followUp) return { text: GATE_REPLY };
	return {
		toolCalls: [
			{
				name: 'register_npc',
				arguments: { name: 'Bram', appearance: 'A broad-shouldered gate guard in a dented helmet, grey beard, spear.' }
			},
			{ name: 'register_npc', arguments: { name: 'Ana', appearance: 'A young courier in a green cloak, short black hair, satchel.' } },
			{ name: 'set_scene', arguments: { name: 'North Gate', description: 'A stone city gate at night, torches, fog.' } },
			{
				name: 'adv_stage',
				arguments: {
					cues: [
						...clearStage(request),
						{ paragraph: 0, action: 'background', scene: 'North Gate' },
						{ paragraph: 1, action: 'enter', character: 'Bram', slot: 'left' },
						{ paragraph: 2, action: 'enter', character: 'Ana', slot: 'right' }
					]
				}
			}
		]
	};
}

function lore(followUp: boolean): ScriptedReply {
	if (followUp) return { text: LORE_REPLY };
	return {
		toolCalls: [
			{ name: 'recall', arguments: { query: 'vault below the archive' } },
			{ name: 'read_document', arguments: { title: 'World Setting' } }
		]
	};
}

function harbour(followUp: boolean): ScriptedReply {
	if (followUp) return { text: HARBOUR_REPLY };
	return {
		toolCalls: [
			{ name: 'set_scene', arguments: { name: 'Harbour', description: 'A harbour at dawn, masts and gulls.' } },
			{
				name: 'adv_stage',
				arguments: {
					cues: [
						{ paragraph: 0, action: 'background', scene: 'Harbour' },
						{ paragraph: 0, action: 'exit', character: 'Ana' },
						{ paragraph: 1, action: 'move', character: 'Bram', slot: 'center' }
					]
				}
			}
		]
	};
}

/** Bram is registered and his entrance staged before the text; the text streams slowly. */
/** `fail`: the key that releases the break in Bram's line (none: the reply streams whole). */
function live(followUp: boolean, request: RecordedRequest, fail: string | undefined): ScriptedReply {
	if (!followUp) {
		return {
			toolCalls: [
				{
					name: 'register_npc',
					arguments: { name: 'Bram', appearance: 'A broad-shouldered gate guard in a dented helmet, grey beard, spear.' }
				},
				{ name: 'set_scene', arguments: { name: 'Cellar', description: 'A damp cellar room, barrels, a single lamp.' } },
				{
					name: 'adv_stage',
					arguments: {
						cues: [
							...clearStage(request),
							{ paragraph: 0, action: 'background', scene: 'Cellar' },
							{ paragraph: 1, action: 'enter', character: 'Bram', slot: 'left' }
						]
					}
				}
			]
		};
	}
	const frames = chunks(LIVE_REPLY, SLOW_CHUNK_CHARS);
	if (fail === undefined) return { text: frames, frameDelayMs: LIVE_FRAME_MS };
	// Broken in the middle of Bram's line: his entrance has played, the reply never completes.
	const inBramsLine = Math.ceil((LIVE_PARAGRAPHS[0]?.length ?? 0) / SLOW_CHUNK_CHARS) + LIVE_FAIL_AFTER_FRAMES;
	return { text: frames, frameDelayMs: LIVE_FRAME_MS, fault: { kind: 'close-mid-stream', afterFrames: inBramsLine, untilReleased: fail } };
}

function music(followUp: boolean, line: string): ScriptedReply {
	if (followUp) return { text: MUSIC_REPLY };
	const track = /#music (.+)$/.exec(line)?.[1]?.trim() ?? 'none';
	return { toolCalls: [{ name: 'adv_stage', arguments: { cues: [{ paragraph: 0, action: 'music', music: track }] } }] };
}

function choices(followUp: boolean): ScriptedReply {
	if (followUp) return { text: CHOICES_REPLY };
	return { toolCalls: [{ name: 'adv_stage', arguments: { choices: CHOICES } }] };
}

function crossroads(followUp: boolean, request: RecordedRequest, line: string): ScriptedReply {
	if (followUp) return { text: CROSSROADS_REPLY };
	const npc = (name: string, appearance: string) => ({ name: 'register_npc', arguments: { name, appearance } });
	return {
		toolCalls: [
			npc('Bram', 'A broad-shouldered gate guard in a dented helmet, grey beard, spear.'),
			npc('Mira', 'A harbour pilot in an oilskin coat, red scarf, lantern.'),
			npc('Ana', 'A young courier in a green cloak, short black hair, satchel.'),
			{
				name: 'adv_stage',
				arguments: {
					cues: [
						...clearStage(request),
						{ paragraph: 0, action: 'enter', character: 'Bram', slot: 'left' },
						{ paragraph: 0, action: 'enter', character: 'Mira', slot: 'center' },
						{ paragraph: 0, action: 'enter', character: 'Ana', slot: 'right' }
					],
					choices: [...CROSSROADS_CHOICES[/[\u3040-\u30ff\u4e00-\u9fff]/.test(line) ? 'ja' : 'en']]
				}
			}
		]
	};
}

function face(followUp: boolean, request: RecordedRequest): ScriptedReply {
	if (followUp) return { text: FACE_REPLY };
	return {
		toolCalls: [
			{
				name: 'register_npc',
				arguments: {
					name: 'Bram',
					appearance: 'A broad-shouldered gate guard in a dented helmet, grey beard, spear.',
					expressions: ['stern']
				}
			},
			{
				name: 'adv_stage',
				arguments: { cues: [...clearStage(request), { paragraph: 0, action: 'enter', character: 'Bram', slot: 'center' }] }
			}
		]
	};
}

function swipeTo(followUp: boolean, place: string): ScriptedReply {
	if (followUp) return { text: swipeReply(place) };
	return {
		toolCalls: [
			{ name: 'update_state', arguments: { patch: { location: place } } },
			{ name: 'set_scene', arguments: { name: place, description: `The ${place}, seen at dusk.` } },
			{ name: 'adv_stage', arguments: { cues: [{ paragraph: 0, action: 'background', scene: place }] } }
		]
	};
}

export function advPlay(): MockHandler {
	const failedOnce = new Set<string>();
	/** `#swipe`: how many times each line was answered. */
	const answered = new Map<string, number>();
	return (request) => {
		const line = playerLine(request);
		const followUp = isFollowUp(request);
		if (line.includes('#gate')) return gate(followUp, request);
		if (line.includes('#swipe')) {
			const n = (answered.get(line) ?? 0) + (followUp ? 0 : 1);
			answered.set(line, n);
			return swipeTo(followUp, SWIPE_PLACES[(n - 1) % SWIPE_PLACES.length] ?? 'Lighthouse');
		}
		if (line.includes('#livefail')) {
			const first = !failedOnce.has(line);
			if (followUp) failedOnce.add(line);
			return live(followUp, request, first ? line : undefined);
		}
		if (line.includes('#live')) return live(followUp, request, undefined);
		if (line.includes('#choices')) return choices(followUp);
		if (line.includes('#music')) return music(followUp, line);
		if (line.includes('#crossroads')) return crossroads(followUp, request, line);
		if (line.includes('#pages')) return { text: PAGES_REPLY };
		if (line.includes('#face')) return face(followUp, request);
		if (line.includes('#harbour')) return harbour(followUp);
		if (line.includes('#lore')) return lore(followUp);
		if (line.includes('#drawn')) return { text: chunks(DRAWN_REPLY, DRAWN_CHUNK_CHARS), frameDelayMs: DRAWN_FRAME_MS };
		if (line.includes('#long')) {
			const sentences = Array.from({ length: LONG_FRAMES - 1 }, (_, i) => `The bell tolls ${i + 1}. `);
			return { text: [...sentences, LONG_REPLY_END], frameDelayMs: LONG_FRAME_MS };
		}
		if (line.includes('#slow')) return { text: chunks(SLOW_REPLY, SLOW_CHUNK_CHARS), frameDelayMs: SLOW_FRAME_MS };
		if (line.includes('#fail')) {
			if (failedOnce.has(line)) return { text: RETRY_REPLY };
			failedOnce.add(line);
			return {
				text: chunks('The fog thickens and something moves in it', SLOW_CHUNK_CHARS),
				frameDelayMs: SLOW_FRAME_MS,
				fault: { kind: 'close-mid-stream', afterFrames: 5 }
			};
		}
		if (line.includes('#leak'))
			return { fault: { kind: 'status', status: 400, message: `${LEAK_MARKER} the prompt was refused`, echoRequest: true } };
		if (line.includes('#perf')) {
			const deltas = Array.from({ length: PERF_DELTAS }, (_, i) => `⟦${i}:{{now}}⟧ `);
			return { text: deltas, frameDelayMs: PERF_FRAME_MS };
		}
		return { text: `You said: ${line.slice(-200)}` };
	};
}
