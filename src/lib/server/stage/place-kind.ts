/**
 * What kind of place a scene is (room, street, open country, outdoors at night), read from the
 * words of its name and visual description in English or Japanese. Only the drawn placeholder
 * backdrop depends on it, so a wrong guess costs a less fitting backdrop until the image arrives.
 */
import { DEFAULT_PLACE_KIND, type PlaceKind } from '../../adv';

type Scored = Exclude<PlaceKind, 'night'>;

/** English words match as words, plurals too (`rooms`, `taverns`); Japanese words (patterns) anywhere. */
const WORDS: Readonly<Record<Scored | 'night', { en: readonly string[]; ja: readonly string[] }>> = {
	interior: {
		en: [
			'room',
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
			'indoors'
		],
		ja: [
			'部屋',
			'室',
			'酒場',
			'宿',
			'店内',
			'広間',
			'地下',
			'屋内',
			'廊下',
			'書斎',
			'台所',
			'寝室',
			'小屋',
			'天幕',
			'テント',
			'天井',
			'屋根裏',
			'聖堂',
			'暖炉',
			'カウンター',
			'壕'
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
		ja: ['通り', '路地', '市場', '広場', '町', '街', '港', '埠頭', '門', '橋', '村', '波止場', '桟橋']
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
			'battlefield'
		],
		ja: [
			'野',
			'原',
			'森',
			'林',
			'丘',
			'山',
			'海',
			'川',
			'浜',
			'砂漠',
			'廃墟',
			'草原',
			'塹壕',
			'空',
			'道',
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
		ja: ['夜(?!明)', '月明', '星空', '月光']
	}
};

/** A word in the place's name says more than one in its description. */
const NAME_WEIGHT = 3;

function count(text: string, kind: Scored | 'night'): number {
	const { en, ja } = WORDS[kind];
	let n = 0;
	for (const word of en) if (new RegExp(`(^|[^a-z])${word}(?:s|es)?(?![a-z])`, 'u').test(text)) n++;
	for (const word of ja) if (new RegExp(word, 'u').test(text)) n++;
	return n;
}

/**
 * The kind of a place. A room stays a room at night (lamplight indoors); a street or open country
 * after dark is drawn as night. Ties go to the interior, then the street: a description that names
 * both usually stands inside one.
 */
export function placeKind(name: string, description = ''): PlaceKind {
	const n = name.toLowerCase();
	const d = description.toLowerCase();
	const score = (kind: Scored | 'night') => count(n, kind) * NAME_WEIGHT + count(d, kind);
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
