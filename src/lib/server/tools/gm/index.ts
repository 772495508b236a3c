/** The fifteen GM tools, in the order of the design brief (their names are part of the product contract). */
import type { Tool } from '../define';
import type { ToolContext } from '../context';
import { advStageTool } from './adv-stage';
import { journalAppendTool, journalReadTool } from './journal';
import { memoryTool } from './memory';
import { readDocumentTool } from './read-document';
import { recallTool } from './recall';
import { rollDiceTool } from './roll-dice';
import { registerNpcTool, setSceneTool } from './stage';
import { getStateTool, updateStateTool } from './state';
import { storyAdvanceTool, storyBeginTool, storyReadTool, storyReviseTool } from './story';

export const GM_TOOLS: readonly Tool<ToolContext>[] = [
	recallTool,
	readDocumentTool,
	getStateTool,
	updateStateTool,
	journalAppendTool,
	journalReadTool,
	memoryTool,
	storyReadTool,
	storyBeginTool,
	storyReviseTool,
	storyAdvanceTool,
	rollDiceTool,
	registerNpcTool,
	setSceneTool,
	advStageTool
];

type GmToolName =
	| 'recall'
	| 'read_document'
	| 'get_state'
	| 'update_state'
	| 'journal_append'
	| 'journal_read'
	| 'memory'
	| 'story_read'
	| 'story_begin'
	| 'story_revise'
	| 'story_advance'
	| 'roll_dice'
	| 'register_npc'
	| 'set_scene'
	| 'adv_stage';

/**
 * Tools whose NAME may be shown to the player as GM activity ("rolling dice…", "checking the
 * records…"). Left out: story_* (that the GM just confirmed a truth or revealed a clue is itself a
 * hint) and memory (the GM's notes hold foreshadowing). Arguments and results are never shown.
 */
export const PLAYER_VISIBLE_TOOL_ACTIVITY: ReadonlySet<string> = new Set<GmToolName>([
	'recall',
	'read_document',
	'get_state',
	'update_state',
	'journal_append',
	'journal_read',
	'roll_dice',
	'register_npc',
	'set_scene',
	'adv_stage'
]);
