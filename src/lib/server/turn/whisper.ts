/**
 * How the GM reads a whispered line (issue 25): the line is marked as private to its sender, so the GM answers
 * them alone and keeps what was whispered from the others. The whisper's reply is private as a whole: the
 * sender and the GM see it, everyone else sees only that the character whispered (the read models filter by
 * the turn's `whisper_by`).
 */
export function gmLine(input: string, whisperAs: string | null | undefined): string {
	if (!whisperAs) return input;
	return (
		`[Whisper from ${whisperAs}, private: only ${whisperAs}'s player reads this line and your answer to it. Answer ${whisperAs} alone, ` +
		`in words only (the stage is everyone's: cues in this answer are dropped); do not reveal it to the others later unless ${whisperAs} does.]\n${input}`
	);
}

/** Whether a turn is someone else's whisper for `viewer` (a user id): they see that it was whispered, nothing of it. */
export function hiddenFrom(whisperBy: string | null | undefined, viewer: string): boolean {
	return whisperBy != null && whisperBy !== viewer;
}
