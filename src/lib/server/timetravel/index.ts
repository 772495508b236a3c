/**
 * Time travel: undo, reroll and edit of the last turn with every record it wrote (over the undo log
 * the turn's commit keeps), and save slots that load as a branch.
 */
export { undoTurn, rerollTurn, type Undone, type Rerolled, type TimeTravelDeps } from './turns';
export { undoInTx, priorRequest, type UndoOutcome, type UndoRequest } from './undo';
export { TimeTravelError } from './errors';
export {
	saveGame,
	loadSave,
	listSaves,
	deleteSave,
	saveDto,
	SaveBody,
	MAX_SAVE_SLOTS,
	MAX_SAVE_NAME_CHARS,
	type SaveRequest,
	type SavesDeps
} from './saves';
