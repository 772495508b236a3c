/**
 * Stage: what the ADV screen shows — NPCs and scenes the GM registered, the image orders for their
 * sprites and backgrounds, and the stage cues of each GM message. Data access only; the GM tools
 * (register_npc, set_scene, adv_stage) and the turn commit call it. Knows nothing of LLMs.
 */
export * as npcs from './npcs';
export * as scenes from './scenes';
export * as imageOrders from './image-orders';
export * as cues from './cues';
export { npcSpritePrompt, sceneBackgroundPrompt, MAX_PROMPT_CHARS } from './prompts';
export { StageError } from './errors';
export { MAX_STAGE_NAME_CHARS, MAX_CHARACTER_NAME_CHARS, MAX_LOOK_CHARS } from './limits';
export { MAX_EXPRESSION_CHARS, MAX_PARAGRAPH } from './cues';
export type { Npc, RegistrationChange } from './npcs';
export type { Scene } from './scenes';
export type { ImageOrder, ImageTarget } from './image-orders';
export { setOpening, setOpeningQuery, openingStage, stageBefore, type Opening } from './timeline';
export { presentNow, presentAfter } from './present';
export { placeKind } from './place-kind';
export * as choices from './choices';
export { listSounds, writeSoundsQuery, musicLine, SessionSoundSchema, type SessionSound } from './sounds';

export {
	composePrologue,
	prologueQueries,
	titleCard,
	prologueText,
	openingContext,
	stageNow,
	stageNowQueries,
	stageNowOf,
	stageStateOf,
	PROLOGUE_TURN_ID,
	TitleCardSchema,
	type PrologueSource,
	type TitleCard
} from './prologue';
