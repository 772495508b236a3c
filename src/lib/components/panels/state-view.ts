/**
 * The state record as a character sheet instead of JSON: where and when first, gauges for `x` /
 * `xMax` pairs, lists as lists, nested records as groups, every key under a readable label in the
 * story's language. Labels come from the state itself (`_labels`, given by the preset or the GM:
 * `{"_labels": {"hpMax": "最大HP"}}`, by key or dotted path), then from a few common words, then
 * from the key spelled out (`greyHands` → "Grey hands"). Keys starting with `_` are not shown.
 */
import type { Language } from '../../types/settings';

export type StateItem =
	| { readonly kind: 'meter'; readonly key: string; readonly label: string; readonly value: number; readonly max: number }
	| { readonly kind: 'value'; readonly key: string; readonly label: string; readonly text: string }
	| { readonly kind: 'list'; readonly key: string; readonly label: string; readonly items: readonly string[] }
	| { readonly kind: 'group'; readonly key: string; readonly label: string; readonly items: readonly StateItem[] };

export interface StateView {
	/** Where and when: shown first, on their own line. */
	readonly headline: readonly { readonly key: string; readonly label: string; readonly text: string }[];
	readonly items: readonly StateItem[];
}

/** Keys that say where and when the story stands, in the order shown. */
const HEADLINE_KEYS = ['location', 'place', 'date', 'day', 'time', 'weather'];
const LABELS_KEY = '_labels';

const COMMON: Readonly<Record<Language, Readonly<Record<string, string>>>> = {
	en: {
		hp: 'HP',
		mp: 'MP',
		location: 'Location',
		place: 'Place',
		time: 'Time',
		date: 'Date',
		day: 'Day',
		weather: 'Weather',
		inventory: 'Inventory',
		items: 'Items',
		money: 'Money',
		gold: 'Gold',
		silver: 'Silver',
		debts: 'Debts',
		flags: 'Flags',
		party: 'Party',
		quests: 'Quests',
		status: 'Condition',
		conditions: 'Conditions',
		level: 'Level',
		xp: 'Experience'
	},
	ja: {
		hp: 'HP',
		mp: 'MP',
		location: '場所',
		place: '場所',
		time: '時刻',
		date: '日付',
		day: '日',
		weather: '天気',
		inventory: '所持品',
		items: '持ち物',
		money: '所持金',
		gold: '金貨',
		silver: '銀貨',
		debts: '借金',
		flags: 'フラグ',
		party: '仲間',
		quests: '依頼',
		status: '状態',
		conditions: '状態',
		level: 'レベル',
		xp: '経験値'
	}
};

type Json = unknown;

function isRecord(x: Json): x is Record<string, Json> {
	return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isScalar(x: Json): boolean {
	return x === null || typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean';
}

/** `greyHands`, `grey_hands` → "Grey hands"; words of other scripts stay as they are. */
export function spellOut(key: string): string {
	const words = key
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.replace(/[_-]+/g, ' ')
		.trim()
		.toLowerCase();
	return words === '' ? key : words.charAt(0).toUpperCase() + words.slice(1);
}

/** The key of `key`'s maximum, when the state has one beside it (`hp` → `hpMax`, `hp_max`, `maxHp`). */
function maxKeyOf(key: string, siblings: Record<string, Json>): string | null {
	const cap = key.charAt(0).toUpperCase() + key.slice(1);
	for (const candidate of [`${key}Max`, `${key}_max`, `max${cap}`, `max_${key}`])
		if (typeof siblings[candidate] === 'number') return candidate;
	return null;
}

export function stateView(doc: Record<string, Json>, language: Language, yesNo: { yes: string; no: string }): StateView {
	const given = isRecord(doc[LABELS_KEY]) ? doc[LABELS_KEY] : {};
	const label = (path: string, key: string): string => {
		const own = given[path] ?? given[key];
		if (typeof own === 'string' && own.trim() !== '') return own;
		return COMMON[language][key] ?? COMMON[language][key.toLowerCase()] ?? spellOut(key);
	};
	const scalar = (x: Json): string => {
		if (x === null || x === undefined) return '—';
		if (typeof x === 'boolean') return x ? yesNo.yes : yesNo.no;
		if (typeof x === 'string' || typeof x === 'number') return String(x);
		return JSON.stringify(x);
	};

	function items(obj: Record<string, Json>, prefix: string): StateItem[] {
		const out: StateItem[] = [];
		const used = new Set<string>();
		for (const key of Object.keys(obj)) {
			const max = maxKeyOf(key, obj);
			if (max) used.add(max);
		}
		for (const [key, value] of Object.entries(obj)) {
			if (key.startsWith('_') || used.has(key)) continue;
			const path = prefix ? `${prefix}.${key}` : key;
			const name = label(path, key);
			const max = maxKeyOf(key, obj);
			const top = max === null ? undefined : obj[max];
			if (typeof value === 'number' && typeof top === 'number' && top > 0)
				out.push({ kind: 'meter', key: path, label: name, value, max: top });
			else if (Array.isArray(value)) {
				if (value.every(isScalar)) out.push({ kind: 'list', key: path, label: name, items: value.map(scalar) });
				else
					out.push({
						kind: 'group',
						key: path,
						label: name,
						items: value.map((v, i): StateItem =>
							isRecord(v)
								? { kind: 'group', key: `${path}.${i}`, label: `${i + 1}`, items: items(v, `${path}.${i}`) }
								: { kind: 'value', key: `${path}.${i}`, label: `${i + 1}`, text: scalar(v) }
						)
					});
			} else if (isRecord(value)) out.push({ kind: 'group', key: path, label: name, items: items(value, path) });
			else out.push({ kind: 'value', key: path, label: name, text: scalar(value) });
		}
		return out;
	}

	const all = items(doc, '');
	const headline = HEADLINE_KEYS.flatMap((key) =>
		all.flatMap((item) => (item.key === key && item.kind === 'value' ? [{ key, label: item.label, text: item.text }] : []))
	);
	const inHeadline = new Set(headline.map((h) => h.key));
	return { headline, items: all.filter((item) => !inHeadline.has(item.key)) };
}
