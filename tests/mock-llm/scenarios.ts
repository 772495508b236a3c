/**
 * Named handlers for the standalone mock (cli.ts) and for e2e tests that need a whole conversation, not a
 * fixed script.
 */
import { lastTurnOfAnthropic, lastTurnOfOpenAi, type LastTurn } from './request-shapes';
import type { MockHandler, RecordedRequest } from './types';
import { advPlay } from './adv-play';

export function lastTurn(request: RecordedRequest): LastTurn {
	if (request.openai) return lastTurnOfOpenAi(request.openai);
	if (request.anthropic) return lastTurnOfAnthropic(request.anthropic);
	return { kind: 'none' };
}

/** Narrates the player's last message back; answers tool results by quoting them. */
const echo: MockHandler = (request) => {
	const turn = lastTurn(request);
	if (turn.kind === 'user') return { text: `You said: ${turn.text}` };
	if (turn.kind === 'tool') return { text: `Tool results: ${turn.results.map((result) => result.content).join(' | ')}` };
	return { text: 'The story waits.' };
};

/**
 * A player line gets a `roll_dice` call; the tool result gets a narration quoting it. Exercises one full tool
 * round trip per turn.
 */
const toolRoundtrip: MockHandler = (request) => {
	const turn = lastTurn(request);
	if (turn.kind === 'tool') return { text: `The dice have spoken: ${turn.results.map((result) => result.content).join(', ')}.` };
	return { text: 'Let fate decide. ', toolCalls: [{ name: 'roll_dice', arguments: { notation: '1d20' } }] };
};

export const SCENARIOS: Readonly<Record<string, MockHandler>> = Object.freeze({
	echo,
	'tool-roundtrip': toolRoundtrip,
	'adv-play': advPlay()
});
