/**
 * Spoken lines read aloud with the browser's speech synthesis: a voice per character, chosen among the
 * browser's voices for the story's language (the same character always gets the same one unless the
 * reader picked another in Settings), at the voice channel's volume. Loaded only once the reader turns
 * voices on; nothing here runs otherwise. Speaking a new line, or leaving one, cancels what was being said.
 */

/** The browser's voices for `language` (its primary subtag: `ja` matches `ja-JP`), sorted by name, default voices first. */
export function voicesFor(all: readonly SpeechSynthesisVoice[], language: string): SpeechSynthesisVoice[] {
	const primary = language.toLowerCase().split('-')[0] ?? '';
	return all
		.filter((v) => v.lang.toLowerCase().replace('_', '-').split('-')[0] === primary)
		.sort((a, b) => Number(b.default) - Number(a.default) || a.name.localeCompare(b.name));
}

/** A small stable hash of a name, so each character keeps its voice from visit to visit. */
function hashOf(name: string): number {
	let h = 0;
	for (const ch of name.normalize('NFKC').toLowerCase()) h = (h * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
	return h;
}

/** The voice a character speaks with: the reader's pick when the browser still has it, else one of the language's by the name's hash. */
export function voiceOf(
	character: string,
	voices: readonly SpeechSynthesisVoice[],
	picked: Readonly<Record<string, string>>
): SpeechSynthesisVoice | null {
	const chosen = picked[character];
	const own = chosen === undefined ? undefined : voices.find((v) => v.voiceURI === chosen);
	if (own) return own;
	return voices.length === 0 ? null : (voices[hashOf(character) % voices.length] ?? null);
}

export class Voices {
	constructor(private readonly synth: SpeechSynthesis) {}

	/** The browser's voices; some browsers fill the list only after `voiceschanged`. */
	list(): SpeechSynthesisVoice[] {
		return this.synth.getVoices();
	}

	onChange(listener: () => void): () => void {
		this.synth.addEventListener('voiceschanged', listener);
		return () => this.synth.removeEventListener('voiceschanged', listener);
	}

	speak(text: string, voice: SpeechSynthesisVoice | null, lang: string, volume: number): void {
		this.synth.cancel();
		const utterance = new SpeechSynthesisUtterance(text);
		utterance.lang = voice?.lang ?? lang;
		if (voice) utterance.voice = voice;
		utterance.volume = Math.min(1, Math.max(0, volume));
		this.synth.speak(utterance);
	}

	stop(): void {
		this.synth.cancel();
	}
}
