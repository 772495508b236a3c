/**
 * Canon (issue 27): a session's secrets and what its world does not have, and the guard that checks
 * the GM's player-visible words against them before the player sees them — streamed text through a
 * short look-ahead, tool calls before they run — with the notes the GM is told. The matching itself is
 * browser-safe (`$lib/canon`), shared with the preset editor.
 */
export { TurnCanon, CanonStoppedError, type ReplyCheck } from './guard';
export { writeCanonQuery, canonQuery, canonOf, canonOfWorld, NO_CANON } from './store';
export { playerNote, rewriteNote } from './notes';
