/**
 * Facts planted in a long scripted campaign and asked for at its end, through the GM's own `recall`
 * tool. Each fact is said once, inside an ordinary GM reply in the language of its stretch, and never
 * written to the journal or a note (the scripted checkpoint summaries do not carry it either): the
 * play log is the only place it survives, which is the hardest case for memory.
 */
import type { Language } from './campaign-script';

export interface PlantedFact {
	/** The turn whose GM reply says it. */
	turn: number;
	kind: 'name' | 'number' | 'place';
	language: Language;
	/** Put at the start of that turn's GM reply. */
	sentence: string;
	/** What the GM asks `recall` at the end: its own words for what it wants, not the answer. */
	query: string;
	/** Text that identifies the reply holding the fact. */
	answer: string;
}

export const PLANTED_FACTS: readonly PlantedFact[] = [
	{
		turn: 1,
		kind: 'name',
		language: 'en',
		sentence: "The ferryman's daughter pushes back her hood and says her name is Liesl Varro.",
		query: "ferryman's daughter name",
		answer: 'Liesl Varro'
	},
	{
		turn: 100,
		kind: 'number',
		language: 'en',
		sentence: 'The harbourmaster lowers his voice: the vault under the guild hall opens with the code 4719.',
		query: 'code for the vault under the guild hall',
		answer: '4719'
	},
	{
		turn: 500,
		kind: 'place',
		language: 'ja',
		sentence: 'ミラは盗まれた聖杯を灰鷺礼拝堂の三番目の長椅子の下に隠した。',
		query: '盗まれた聖杯の隠し場所',
		answer: '灰鷺礼拝堂'
	},
	{
		turn: 900,
		kind: 'place',
		language: 'en',
		sentence: 'Oswin whispers that the smugglers meet aboard the Grey Heron, moored at pier fourteen.',
		query: 'where do the smugglers meet',
		answer: 'Grey Heron'
	}
];

/** How many hits count as "came back" (the GM reads the first few). */
export const FACT_TOP_K = 5;
