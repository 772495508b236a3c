/**
 * The production token counter: OpenAI's o200k_base encoding (js-tiktoken, pure JavaScript, ranks
 * shipped in the package). Other vendors tokenize differently; for a checkpoint threshold a close
 * count is what matters.
 *
 * Building the encoder from its ranks is synchronous and takes about a second on an idle machine
 * (several on a loaded one), during which this process answers nothing. A server therefore loads it
 * when the app is built, before it listens (`loadTokenizer`), not inside the first turn: a stall there
 * longer than the HTTP keep-alive timeout resets the connections of clients waiting on it.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import type { TokenCounter } from './policy';

let encoder: Tiktoken | undefined;

/** Builds the encoder once (later calls do nothing). */
export function loadTokenizer(): Tiktoken {
	encoder ??= new Tiktoken(o200k);
	return encoder;
}

/** Whether the encoder has been built in this process. */
export function tokenizerLoaded(): boolean {
	return encoder !== undefined;
}

export const countTokensO200k: TokenCounter = (text) => loadTokenizer().encode(text).length;
