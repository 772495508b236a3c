/**
 * What kind of place a scene is (room, street, open country, outdoors at night), read from the
 * words of its name and visual description in English or Japanese. Only the drawn placeholder
 * backdrop depends on it, so a wrong guess costs a less fitting backdrop until the image arrives.
 *
 * Words are found the way a reader splits the text, by longest match: at each point of the text the
 * longest listed word wins and the next word starts after it. Japanese has no spaces, and a short
 * place word is often part of a longer word that is no place or another kind of place: 「高地下」
 * ("below the hill") is 高地 + 下, not 高 + 地下 ("underground"); 塹壕 (a trench, open country) holds
 * 壕 (a dugout); 山賊 is a bandit, not a mountain. Such longer words are listed, with their own kind
 * or with none. English words match as whole words (plurals too: `rooms`, `taverns`), longest first,
 * so "common room" and "no man's land" are read as one word each.
 */
import { DEFAULT_PLACE_KIND, type PlaceKind } from '../../adv';

type Scored = Exclude<PlaceKind, 'night'>;
/** `none`: a word that holds a place word but names no place; listed so that its part is not read. */
const WORD_KINDS = ['interior', 'street', 'field', 'night', 'none'] as const;
type WordKind = (typeof WORD_KINDS)[number];

const WORDS: Readonly<Record<WordKind, { en: readonly string[]; ja: readonly string[] }>> = {
	interior: {
		en: [
			'room',
			'common room',
			'hall',
			'tavern',
			'inn',
			'chamber',
			'cellar',
			'office',
			'dugout',
			'inside',
			'interior',
			'corridor',
			'library',
			'shop',
			'kitchen',
			'bedroom',
			'hut',
			'tent',
			'cabin',
			'cockpit',
			'ceiling',
			'attic',
			'parlour',
			'parlor',
			'sanctuary',
			'crypt',
			'study',
			'barracks',
			'bar',
			'hearth',
			'indoors',
			'cave',
			'tunnel',
			'dungeon'
		],
		ja: [
			'部屋',
			'室',
			'酒場',
			'宿',
			'宿屋',
			'下宿',
			'店内',
			'広間',
			'地下',
			'地下室',
			'地下牢',
			'地下道',
			'屋内',
			'廊下',
			'書斎',
			'書庫',
			'台所',
			'食堂',
			'寝室',
			'小屋',
			'天幕',
			'テント',
			'天井',
			'屋根裏',
			'聖堂',
			'礼拝堂',
			'暖炉',
			'カウンター',
			'壕',
			'洞窟',
			'坑道',
			'牢',
			'兵舎',
			'操縦席'
		]
	},
	street: {
		en: [
			'street',
			'alley',
			'market',
			'square',
			'plaza',
			'town',
			'city',
			'quay',
			'harbour',
			'harbor',
			'dock',
			'gate',
			'bridge',
			'lane',
			'rooftop',
			'wharf',
			'pier',
			'village',
			'slum'
		],
		ja: ['通り', '路地', '市場', '広場', '町', '街', '港', '埠頭', '門', '城門', '橋', '村', '波止場', '桟橋', '屋上', '地下鉄']
	},
	field: {
		en: [
			'field',
			'forest',
			'wood',
			'plain',
			'steppe',
			'hill',
			'mountain',
			'shore',
			'beach',
			'sea',
			'river',
			'meadow',
			'desert',
			'ruin',
			'trench',
			'crater',
			'park',
			'trees',
			'sky',
			'road',
			'coast',
			'cliff',
			'lake',
			'valley',
			'wilderness',
			'camp',
			'mud',
			'battlefield',
			"no man's land",
			"no-man's-land",
			'highland'
		],
		ja: [
			'野',
			'荒野',
			'原',
			'平原',
			'森',
			'林',
			'丘',
			'高地',
			'台地',
			'山',
			'山道',
			'海',
			'川',
			'浜',
			'砂漠',
			'廃墟',
			'草原',
			'塹壕',
			'無人地帯',
			'空',
			'道',
			'街道',
			'岸',
			'崖',
			'湖',
			'谷',
			'泥',
			'ぬかる',
			'木々',
			'戦場',
			'駐機場'
		]
	},
	night: {
		en: ['night', 'midnight', 'moon', 'starlit', 'stars', 'starry', 'after dark'],
		ja: ['夜', '深夜', '夜中', '今夜', '月明', '月明かり', '月光', '星空']
	},
	none: {
		en: [],
		// Dawn is not night; the rest hold a place word and are none.
		ja: [
			'夜明',
			'夜明け',
			'宿命',
			'宿題',
			'野菜',
			'分野',
			'視野',
			'原因',
			'原則',
			'原稿',
			'空気',
			'空腹',
			'道具',
			'専門',
			'山賊',
			'海賊',
			'林檎'
		]
	}
};

function escape(word: string): string {
	return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One pattern per language, its words longest first: at each point the longest word matches. */
function compile(language: 'en' | 'ja'): { pattern: RegExp; kindOf: ReadonlyMap<string, WordKind> } {
	const kindOf = new Map<string, WordKind>();
	for (const kind of WORD_KINDS) for (const word of WORDS[kind][language]) kindOf.set(word, kind);
	const words = [...kindOf.keys()].sort((a, b) => b.length - a.length).map(escape);
	const body = `(${words.join('|')})`;
	// English: whole words, an optional plural ending; a letter on either side makes it another word.
	const source = language === 'en' ? `(?<![a-z])${body}(?:s|es)?(?![a-z])` : body;
	return { pattern: new RegExp(source, 'gu'), kindOf };
}

const LANGUAGES = [compile('en'), compile('ja')];

/** The distinct words of each kind in `text` (lowercased). */
function wordsByKind(text: string): Record<WordKind, Set<string>> {
	const found: Record<WordKind, Set<string>> = {
		interior: new Set(),
		street: new Set(),
		field: new Set(),
		night: new Set(),
		none: new Set()
	};
	for (const { pattern, kindOf } of LANGUAGES) {
		for (const m of text.matchAll(pattern)) {
			const word = m[1] ?? '';
			const kind = kindOf.get(word);
			if (kind) found[kind].add(word);
		}
	}
	return found;
}

/** A word in the place's name says more than one in its description. */
const NAME_WEIGHT = 3;

/**
 * The kind of a place. A room stays a room at night (lamplight indoors); a street or open country
 * after dark is drawn as night. Ties go to the interior, then the street: a description that names
 * both usually stands inside one.
 */
export function placeKind(name: string, description = ''): PlaceKind {
	const inName = wordsByKind(name.toLowerCase());
	const inDescription = wordsByKind(description.toLowerCase());
	const score = (kind: PlaceKind) => inName[kind].size * NAME_WEIGHT + inDescription[kind].size;
	const scores: [Scored, number][] = [
		['interior', score('interior')],
		['street', score('street')],
		['field', score('field')]
	];
	const best = scores.reduce((a, b) => (b[1] > a[1] ? b : a));
	if (best[1] === 0) return score('night') > 0 ? 'night' : DEFAULT_PLACE_KIND;
	if (best[0] !== 'interior' && score('night') > 0) return 'night';
	return best[0];
}
