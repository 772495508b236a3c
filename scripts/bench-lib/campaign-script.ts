/**
 * A deterministic scripted campaign: what the player says each turn, what the GM answers, which turns
 * call a tool, and the checkpoint summaries. Sizes follow a real session: player lines 20–200
 * characters, GM replies 300–1,500 (English); every fifth stretch of 25 turns is played in Japanese,
 * where the same content takes fewer characters (10–100 and 150–700) but more tokens per character.
 */
import { between, pick, prng, type Rng } from './random';
import type { PlantedFact } from './facts';
import type { Language } from '../../src/lib/types/settings';

export type { Language };

export interface PlannedTool {
	name: string;
	args: Record<string, unknown>;
}

export interface ScriptedTurn {
	index: number;
	language: Language;
	player: string;
	gm: string;
	/** When set, the GM calls this tool first and narrates in the follow-up call. */
	tool?: PlannedTool;
	/** Several tools called together in the first call (instead of `tool`). */
	tools?: PlannedTool[];
}

/** Facts said at given turns and asked for with `recall` at `askAt` (bench:campaign). */
export interface FactPlan {
	facts: readonly PlantedFact[];
	askAt: number;
}

const SIZES = {
	en: { player: [20, 200], gm: [300, 1500] },
	ja: { player: [10, 100], gm: [150, 700] }
} as const;
/** Turns per language stretch; every JA_EVERY-th stretch is Japanese. */
const LANGUAGE_STRETCH = 25;
const JA_EVERY = 5;
/** One turn in TOOL_EVERY calls a tool (so it makes two LLM calls). */
const TOOL_EVERY = 4;
/** Checkpoint summaries: the GM rewrites them whole, so they stay this size however long the campaign. */
const SUMMARY_CHARS = [1200, 2400] as const;

const NAMES = ['Bram', 'Mira', 'Oswin', 'Tarrow', 'Ilse', 'Kestrel', 'Vey', 'Corwin', 'Anneke', 'Rusk'];
const PLACES = [
	'the North Gate',
	'the Lantern Inn',
	'the salt market',
	'the old lighthouse',
	'the clock tower',
	'the flooded crypt',
	'the river docks',
	'the guild hall'
];
const THINGS = [
	'a brass key',
	'a sealed letter',
	'the silver compass',
	'a bloodied glove',
	'the harbour ledger',
	'a lantern',
	'the map fragment',
	'a vial of ink'
];
const VERBS = ['studies', 'hides', 'offers', 'questions', 'follows', 'remembers', 'refuses', 'examines'];
const MOODS = [
	'Rain drums on the shutters.',
	'Gaslight flickers along the wet cobbles.',
	'A bell tolls somewhere to the east.',
	'The fog thickens over the canal.',
	'Someone laughs too loudly in the next room.'
];
const PLAYER_EN = ['I ask', 'I look at', 'I walk over to', 'Can I search', 'I tell', 'I quietly follow', 'I pocket', 'I show'];

const JA_NAMES = ['ブラム', 'ミラ', 'オズウィン', 'タロウ', 'イルゼ', 'ケストレル'];
const JA_PLACES = ['北門', '灯火亭', '塩市場', '古い灯台', '時計塔', '水没した地下墓所', '川の波止場'];
const JA_THINGS = ['真鍮の鍵', '封をした手紙', '銀の羅針盤', '血のついた手袋', '港の台帳', '地図の切れ端'];
const JA_VERBS = ['を調べる', 'を隠す', 'を差し出す', 'について問いただす', 'を追う', 'を思い出す'];
const JA_MOODS = ['雨が鎧戸を叩いている。', 'ガス灯が濡れた石畳に揺れる。', '東のどこかで鐘が鳴る。', '運河の霧が濃くなってきた。'];

function fill(target: number, next: () => string, joiner: string): string {
	let out = '';
	while (out.length < target) out += (out ? joiner : '') + next();
	return out.slice(0, target).trimEnd();
}

function enPlayer(rnd: Rng, chars: number): string {
	return fill(chars, () => `${pick(rnd, PLAYER_EN)} ${pick(rnd, NAMES)} about ${pick(rnd, THINGS)} near ${pick(rnd, PLACES)}.`, ' ');
}
function enGm(rnd: Rng, chars: number): string {
	return fill(
		chars,
		() =>
			rnd() < 0.3
				? `"${pick(rnd, ['Not here', 'You are late', 'Keep your voice down', 'I saw nothing', 'Ask the harbourmaster'])}," ${pick(rnd, NAMES)} says, \
glancing toward ${pick(rnd, PLACES)}.`
				: `${pick(rnd, NAMES)} ${pick(rnd, VERBS)} ${pick(rnd, THINGS)} by ${pick(rnd, PLACES)}. ${pick(rnd, MOODS)}`,
		' '
	);
}
function jaPlayer(rnd: Rng, chars: number): string {
	return fill(chars, () => `${pick(rnd, JA_NAMES)}に${pick(rnd, JA_THINGS)}のことを聞く。`, '');
}
function jaGm(rnd: Rng, chars: number): string {
	return fill(
		chars,
		() =>
			rnd() < 0.3
				? `「${pick(rnd, ['ここでは話せない', '遅かったな', '声を落とせ', '何も見ていない'])}」と${pick(rnd, JA_NAMES)}は言った。`
				: `${pick(rnd, JA_NAMES)}は${pick(rnd, JA_PLACES)}で${pick(rnd, JA_THINGS)}${pick(rnd, JA_VERBS)}。${pick(rnd, JA_MOODS)}`,
		''
	);
}

const TOOL_ROTATION = ['journal_append', 'update_state', 'roll_dice', 'memory', 'recall'] as const;

function plannedTool(rnd: Rng, index: number): PlannedTool {
	const name = TOOL_ROTATION[Math.floor(index / TOOL_EVERY) % TOOL_ROTATION.length] ?? 'roll_dice';
	switch (name) {
		case 'journal_append':
			return {
				name,
				args: { entry: `Turn ${index}: ${pick(rnd, NAMES)} ${pick(rnd, VERBS)} ${pick(rnd, THINGS)} at ${pick(rnd, PLACES)}.` }
			};
		case 'update_state':
			// A fixed set of keys: the state in the context stays the same size, as in a real game.
			return {
				name,
				args: {
					patch: {
						location: pick(rnd, PLACES),
						time: `Day ${1 + Math.floor(index / 20)}, ${pick(rnd, ['dawn', 'noon', 'dusk', 'night'])}`,
						hp: between(rnd, 3, 12),
						gold: between(rnd, 0, 80)
					}
				}
			};
		case 'memory':
			return {
				name,
				args: {
					action: 'create',
					name: `npc-${index}`,
					body: `${pick(rnd, NAMES)} owes the party a favour; met at ${pick(rnd, PLACES)} on turn ${index}.`
				}
			};
		case 'recall':
			return { name, args: { query: `${pick(rnd, NAMES)} ${pick(rnd, THINGS)}` } };
		default:
			return {
				name: 'roll_dice',
				args: {
					notation: '1d20+3',
					reason: `${pick(rnd, NAMES)} tries to ${pick(rnd, ['climb the wall', 'pick the lock', 'spot the tail'])}`
				}
			};
	}
}

export class CampaignScript {
	private readonly turns = new Map<number, ScriptedTurn>();

	constructor(
		private readonly seed = 3,
		private readonly plan?: FactPlan
	) {}

	/** Turn `index` (1-based), the same on every run. */
	turn(index: number): ScriptedTurn {
		const cached = this.turns.get(index);
		if (cached) return cached;
		const rnd = prng(this.seed * 1_000_003 + index);
		const language: Language = Math.floor((index - 1) / LANGUAGE_STRETCH) % JA_EVERY === JA_EVERY - 1 ? 'ja' : 'en';
		const size = SIZES[language];
		const playerChars = between(rnd, size.player[0], size.player[1]);
		const gmChars = between(rnd, size.gm[0], size.gm[1]);
		const gm = language === 'ja' ? jaGm(rnd, gmChars) : enGm(rnd, gmChars);
		const fact = this.plan?.facts.find((f) => f.turn === index);
		const t: ScriptedTurn = {
			index,
			language,
			player: language === 'ja' ? jaPlayer(rnd, playerChars) : enPlayer(rnd, playerChars),
			gm: fact ? `${fact.sentence}${language === 'ja' ? '' : ' '}${gm}` : gm,
			...(index % TOOL_EVERY === 0 ? { tool: plannedTool(rnd, index) } : {})
		};
		if (this.plan && index === this.plan.askAt) {
			delete t.tool;
			t.tools = this.plan.facts.map((f) => ({ name: 'recall', args: { query: f.query, k: 5 } }));
		}
		this.turns.set(index, t);
		return t;
	}

	/** The `n`-th checkpoint's hand-off summary, under the fixed headings. */
	summary(n: number): string {
		const rnd = prng(this.seed * 7_919 + n);
		const chars = between(rnd, SUMMARY_CHARS[0], SUMMARY_CHARS[1]);
		const headings = ['Current scene', 'PC and companions', 'Open quests and foreshadowing', 'Key NPCs', 'Player preferences'];
		const per = Math.floor(chars / headings.length);
		return headings.map((h) => `## ${h}\n${enGm(rnd, per)}`).join('\n');
	}

	/** What the GM records with a tool at the `n`-th checkpoint before writing the summary. */
	checkpointTool(n: number): PlannedTool {
		const rnd = prng(this.seed * 104_729 + n);
		return {
			name: 'journal_append',
			args: { entry: `Checkpoint ${n}: ${pick(rnd, NAMES)} still ${pick(rnd, VERBS)} ${pick(rnd, THINGS)}.` }
		};
	}
}
