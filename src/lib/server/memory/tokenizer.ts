/**
 * The production token counter: OpenAI's o200k_base encoding (js-tiktoken, pure JavaScript, ranks
 * shipped in the package). Other vendors tokenize differently; for a checkpoint threshold a close
 * count is what matters. Loading the ranks takes about a second, so it happens once, on first use.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import type { TokenCounter } from './policy';

let encoder: Tiktoken | undefined;

export const countTokensO200k: TokenCounter = (text) => {
	encoder ??= new Tiktoken(o200k);
	return encoder.encode(text).length;
};
