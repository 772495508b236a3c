import type { TokenCounter } from './policy';

/**
 * A dependency-free token estimate used when no tokenizer is injected: about four characters per
 * token for Latin script, and one token per character for CJK (which real tokenizers split finely).
 * It errs high, which only makes checkpoints come a little early.
 */
export const estimateTokens: TokenCounter = (text) => {
	let cjk = 0;
	let other = 0;
	for (const ch of text) {
		const code = ch.codePointAt(0) ?? 0;
		if (
			(code >= 0x3040 && code <= 0x30ff) ||
			(code >= 0x3400 && code <= 0x9fff) ||
			(code >= 0xf900 && code <= 0xfaff) ||
			(code >= 0xff00 && code <= 0xffef)
		)
			cjk++;
		else other++;
	}
	return cjk + Math.ceil(other / 4);
};
