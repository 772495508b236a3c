/**
 * Time travel: undo, reroll and edit of the last turn with every record it wrote (over the undo log
 * the turn's commit keeps), and save slots that load as a branch.
 */
export { undoTurn, rerollTurn } from './turns';
export { type UndoOutcome } from './undo';
export { TimeTravelError } from './errors';
export { saveGame, loadSave, listSaves, deleteSave, SaveBody, MAX_SAVE_SLOTS } from './saves';
export { newAlternative, listAlternatives, chooseAlternative, type AlternativeItem, type SwipeDeps } from './swipes';
