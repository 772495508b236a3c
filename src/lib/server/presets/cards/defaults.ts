/**
 * Neutral defaults for what a card or a lorebook has no notion of (the PC sheet, the opening place,
 * the plot…), so an import is a playable preset at once. Each says little and commits to nothing;
 * the report lists every field given one, for the author to change.
 */
import type { Language } from '../../../types/settings';

export interface Defaults {
	role: string;
	look: string;
	scene: string;
	sceneLook: string;
	premise: (name: string) => string;
	pc: string;
	plot: (name: string) => string;
	situation: (name: string) => string;
	gmBehaviour: (name: string) => string;
	personality: (name: string) => string;
	entry: string;
	overview: string;
	lorebookTitle: string;
	lorebookNpc: string;
}

export const DEFAULTS: Record<Language, Defaults> = {
	en: {
		role: 'Met at the start of the story',
		look: 'A figure in simple clothes.',
		scene: 'Where it begins',
		sceneLook: 'The place where the story opens, in soft light.',
		premise: (name) => `A story with ${name}.`,
		pc: '## Who you are\n\nYourself, as the story finds you.\n\n## What you know\n\nWhat the opening tells you.',
		plot: (name) => `## Direction\n\nFollow the player's lead; let the story grow from the premise and from ${name}.`,
		situation: (name) => `The player has just read the opening. Continue from it as ${name} would, without retelling it.`,
		gmBehaviour: (name) => `Play ${name} as their notes describe them, stay in character, and let the player lead.`,
		personality: (name) => `${name} has no written notes yet: play them by the premise and the opening.`,
		entry: 'Entry',
		overview: 'Overview',
		lorebookTitle: 'Imported lorebook',
		lorebookNpc: 'Narrator'
	},
	ja: {
		role: '物語のはじめに出会う人物',
		look: '簡素な服装の人物。',
		scene: 'はじまりの場所',
		sceneLook: '物語がはじまる場所。柔らかな光。',
		premise: (name) => `${name}との物語。`,
		pc: '## あなたは\n\n物語が出会ったままのあなた。\n\n## 知っていること\n\n冒頭に書かれたことだけ。',
		plot: (name) => `## 方針\n\nプレイヤーの行動に従い、前提と${name}から物語を育てる。`,
		situation: (name) => `プレイヤーは冒頭を読んだところ。繰り返さずに、${name}としてその続きから始める。`,
		gmBehaviour: (name) => `${name}を人物メモのとおりに演じ、役を崩さず、プレイヤーに主導させる。`,
		personality: (name) => `${name}の人物メモはまだない。前提と冒頭に沿って演じる。`,
		entry: '項目',
		overview: '概要',
		lorebookTitle: '取り込んだ設定集',
		lorebookNpc: '語り手'
	}
};

const JAPANESE = /[\u3040-\u30ff\u3400-\u9fff]/;

export function languageOf(text: string): Language {
	return JAPANESE.test(text) ? 'ja' : 'en';
}
