/**
 * The GM names expressions freely ("stern", "grinning", "涙ぐむ"); a drawn figure can show only a few
 * faces. `expressionMood` reads the word for the face it means, in English or Japanese, by stems and
 * characters (the GM inflects: "smiling", "smiles", "笑顔", "微笑む"). A word it cannot read is
 * `neutral`: the figure then looks as it does without an expression, never as some other feeling.
 */
export const MOODS = ['neutral', 'happy', 'sad', 'angry', 'surprised', 'afraid', 'thinking'] as const;
export type Mood = (typeof MOODS)[number];

/** First match wins: a "sad smile" reads sad, an "angry shout" angry (the feeling before the gesture). */
const CUES: readonly (readonly [Mood, RegExp])[] = [
	['angry', /angr|furi|rage|scowl|glar|annoy|irrit|stern|mad\b|livid|怒|憤|苛|睨|不機嫌|むっ|ムッ/i],
	['sad', /sad|cr(?:y|ie)|tear|sorrow|grie|gloom|melanchol|unhapp|downcast|hurt|悲|泣|涙|寂|哀|落ち込|しょんぼり/i],
	['afraid', /afraid|fear|scare|terri|nervous|anxi|worr|panic|tremb|uneas|怖|恐|怯|不安|焦|震/i],
	['surprised', /surpris|shock|astonish|amaz|startl|gasp|wide-eyed|驚|びっくり|ビックリ|唖然|目を丸/i],
	['thinking', /think|ponder|thought|curio|puzzl|doubt|suspic|wonder|confus|skeptic|考|悩|疑|怪訝|首をかし|思案/i],
	['happy', /smil|happ|grin|laugh|joy|glad|cheer|delight|amus|pleased|warm|笑|嬉|喜|楽|微笑|にこ|ニコ/i]
];

export function expressionMood(expression: string | undefined): Mood {
	if (expression === undefined) return 'neutral';
	return CUES.find(([, pattern]) => pattern.test(expression))?.[0] ?? 'neutral';
}
