/**
 * The checkpoint turn: an operator message (not a player line) asking the GM to record what is not
 * yet recorded and then write a hand-off summary for its reset self, under fixed headings.
 */
import type { Exchange } from './exchanges';
import type { LlmMessage } from '../llm';
import type { Language } from '../../types/settings';

export const SUMMARY_HEADINGS = {
	en: ['Current scene', 'PC and companions', 'Open quests and foreshadowing', 'Key NPCs', 'Player preferences'],
	ja: ['現在のシーン', 'PC と同行者', '進行中のクエストと伏線', '主要 NPC', 'プレイヤーの好み']
} as const satisfies Record<Language, readonly string[]>;

/**
 * The operator's checkpoint message. The previous summary is not repeated here: it already heads the
 * records in the system text, and the instruction points at it.
 */
export function checkpointInstruction(language: Language, hasPreviousSummary: boolean): string {
	const headings = SUMMARY_HEADINGS[language].map((h) => `## ${h}`).join('\n');
	const previous = hasPreviousSummary
		? '\n\nYour summary replaces the "Latest hand-off summary" in the records above, which will not be ' +
			'shown to you again: carry forward everything in it that is still true.'
		: '';
	const replyLanguage = language === 'ja' ? 'Write the summary in Japanese.' : 'Write the summary in English.';
	return `[OPERATOR — CHECKPOINT. This is not the player speaking. Do not advance the story.]
The conversation history is about to be cleared. Do these two things in order:
1. Record with tools every fact not yet recorded: location, in-game time, state changes, NPCs met, foreshadowing, promises made to the player.
2. Then reply with a hand-off summary for yourself after the reset, using exactly these headings:
${headings}
Rules: keep confirmed events, rumours, guesses and unexecuted plans apart and label them; write \
contradictions as they are and never invent facts to reconcile them; never copy story-DB truths or \
spoilers into the summary. ${replyLanguage}${previous}`;
}

/**
 * The instruction of a later part of a checkpoint written in parts (context too small for the whole history
 * at once): the part before it summarised the older exchanges, and its summary heads the records.
 */
export function checkpointPartInstruction(language: Language, part: number): string {
	return `${checkpointInstruction(language, true)}

This is part ${part + 1} of a checkpoint written in parts: the exchanges before these are already in the hand-off summary above.`;
}

/**
 * Asks for a summary that fits a small context: the next requests carry it in full. Appended to the
 * instruction when the context leaves less than a comfortable summary's room.
 */
export function summaryLimitNote(tokens: number): string {
	const words = Math.floor(tokens * 0.75);
	return `\n\nThe model's context is small: keep the summary under about ${tokens} tokens (about ${words} English words or ${tokens} Japanese characters).`;
}

/**
 * Messages of a checkpoint request: the whole history since the last checkpoint, then the
 * instruction. Exchanges carried over the previous checkpoint are left out: the previous summary,
 * which heads the records, already holds them.
 */
export function checkpointMessages(history: readonly Exchange[], instruction: string): LlmMessage[] {
	const messages: LlmMessage[] = [];
	for (const ex of history) if (!ex.carried) messages.push({ role: 'user', content: ex.player }, { role: 'assistant', content: ex.gm });
	messages.push({ role: 'user', content: instruction });
	return messages;
}
