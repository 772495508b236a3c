import type { sessionSchema } from '../db';

/** The seven record kinds of the design brief, spelled as they appear in `sections.kind`. */
export const RECORD_KINDS = ['state', 'journal', 'memory', 'document', 'summary', 'story', 'log'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

// Compile-time guard: the list above and the schema's enum must name the same kinds.
type SchemaKind = (typeof sessionSchema.sections.kind.enumValues)[number];
const _kindsMatchSchema: [RecordKind] extends [SchemaKind] ? ([SchemaKind] extends [RecordKind] ? true : never) : never = true;

/**
 * Who may see a kind's records outside the GM's own context.
 * - `player`: shown to the player (backlog, state panel, player-side search).
 * - `gm`: never player-visible (the story DB holds spoilers).
 * - `per-record`: decided by the record's own flag (documents carry `gmOnly`).
 *
 * Memory notes and summaries are the GM's working notes, but the brief names only the story DB and
 * GM-only documents as secret, so secrets belong there (the memory tool's description should say so).
 */
export type Visibility = 'player' | 'gm' | 'per-record';

export const KIND_VISIBILITY: Readonly<Record<RecordKind, Visibility>> = {
	state: 'player',
	journal: 'player',
	memory: 'player',
	document: 'per-record',
	summary: 'player',
	story: 'gm',
	log: 'player'
};
