/**
 * The limits the editor counts against. The server fills them from the schema's own constants and
 * passes them to the page, so the counters can never disagree with the validation.
 */
export interface PresetLimits {
	name: number;
	tagline: number;
	body: number;
	look: number;
	npcName: number;
	sceneName: number;
	npcs: number;
	secrets: number;
	markers: number;
	anachronisms: number;
	anachronismTerms: number;
	term: number;
	onStage: number;
	settingHeadings: number;
	presetBytes: number;
	tags: number;
	tagChars: number;
}
