/**
 * A card's greeting as the screen's script, and back. Card greetings mark actions with asterisks and
 * speech with quotes (`*She turns.* "You're awake."`); the screen reads narration paragraphs and
 * `@Name: …` lines. Speech in a greeting is the card's character's (a card has one), so each quoted
 * run becomes a line of theirs, in its quotes, and everything else narration, in the order written.
 */
import { parseScript } from '../../../adv';

const SEGMENT = /\*([^*]+)\*|("[^"]*"|“[^”]*”|「[^」]*」|『[^』]*』)/g;

function pushNarration(out: string[], text: string): void {
	const t = text.replace(/\*/g, '').replace(/\s+/g, ' ').trim();
	if (t !== '') out.push(t);
}

/** A greeting (macros already resolved) as script paragraphs joined by blank lines. */
export function greetingToScript(greeting: string, speaker: string): string {
	const out: string[] = [];
	for (const paragraph of greeting.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
		let narration = '';
		let last = 0;
		for (const m of paragraph.matchAll(SEGMENT)) {
			narration += paragraph.slice(last, m.index);
			last = m.index + m[0].length;
			if (m[1] !== undefined) {
				narration += ` ${m[1]} `;
				continue;
			}
			pushNarration(out, narration);
			narration = '';
			out.push(`@${speaker}: ${(m[2] ?? '').replace(/\s+/g, ' ').trim()}`);
		}
		pushNarration(out, narration + paragraph.slice(last));
	}
	return out.join('\n\n');
}

/** Script back as a greeting: narration in asterisks, each line of speech as its quoted text. */
export function scriptToGreeting(script: string): string {
	if (script.trim() === '') return '';
	return parseScript(script, { final: true })
		.map((p) => (p.kind === 'dialogue' ? (/^["“「『]/.test(p.text) ? p.text : `"${p.text}"`) : `*${p.text}*`))
		.join('\n\n');
}

/** The first sentence of a script, short, as a label for the title card's choice of opening. */
export function openingLabel(script: string, max = 60): string {
	const first = parseScript(script, { final: true })
		.map((p) => p.text)
		.find((t) => t.trim() !== '');
	const flat = (first ?? '').replace(/\s+/g, ' ').trim();
	const sentence = /^.+?[.!?。！？」](?=\s|$)/u.exec(flat)?.[0] ?? flat;
	return sentence.length > max ? `${sentence.slice(0, max - 1).trimEnd()}…` : sentence;
}
