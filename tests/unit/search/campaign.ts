/** A small mixed Japanese/English campaign for recall tests. */
import type { SectionInput } from './factory';

export const CAMPAIGN: readonly SectionInput[] = [
	{ ref: 'north-gate', path: '地理 › 北部 › 北門', body: '街の北側にある古い石造りの門。夜は閉ざされ、衛兵が松明を掲げて見張っている。' },
	{
		ref: 'bram',
		kind: 'memory',
		path: 'NPC › ブラム',
		body: 'ブラムは北門を守る老いた衛兵。若い頃は傭兵だったが、左膝を痛めて引退した。酒に弱い。'
	},
	{ ref: 'grey-tower', path: '地理 › 灰色の塔', body: '湖のほとりに立つ魔術師の塔。七階建てで、最上階には星見の間がある。' },
	{ ref: 'moon-herb', path: '品物 › 月光草', body: '満月の夜にだけ咲く青白い草。煎じて飲めば熱が下がるという。' },
	{ ref: 'sword', path: '品物 › 剣', body: '刃こぼれした古い長剣。柄に竜の紋章が彫られている' },
	{
		ref: 'forge',
		path: 'Places › Harbor District › The Forge',
		body: 'Old Marta forges swords and mends armour for the harbour guard. Her hammer can be heard from dawn until dusk.'
	},
	{
		ref: 'tavern',
		path: 'Places › Harbor District › The Drowned Lantern',
		body: 'A smoky tavern where sailors gamble with bone dice and trade rumours about smugglers.'
	},
	{
		ref: 'lighthouse',
		path: 'Places › Cliffs › Lighthouse',
		body: 'The lighthouse keeper, Edrin, has not lit the lamp for three nights. Ships are running aground.'
	},
	{
		ref: 'dragon-lore',
		kind: 'journal',
		path: 'Journal',
		body: 'The party learned that the dragon sleeping under the mountain was bound by an oath to the first queen.'
	},
	{
		ref: 'secret',
		kind: 'story',
		path: 'Truths › Edrin',
		body: 'Edrin the lighthouse keeper is secretly paid by the smugglers to keep the lamp dark.',
		gmOnly: true
	},
	{ ref: 'secret-ja', kind: 'story', path: '真相 › ブラム', body: 'ブラムは王家の落とし子であり、本人はそれを知らない。', gmOnly: true }
];
