/** Test data and steps for the preset browser tests: a preset's content, filling the editor, reading what a player can see. */
import { expect, type Page } from '@playwright/test';

/** Hidden in the world setting: a player of someone else's session must never see it anywhere. */
export const MARKER = 'VELLUM-QX-4471';
/** The secret's giveaway phrase: the leak check must flag it in a player-visible field. */
export const SECRET_MARKER = 'Ilse stole the tide book';

export interface PresetText {
	title: string;
	tagline: string;
}

/** A complete preset (the API's shape, without id), with the marker in a setting section; English unless asked for Japanese. */
export function presetContent({ title, tagline }: PresetText, language: 'en' | 'ja' = 'en'): Record<string, unknown> {
	if (language === 'ja') return presetContentJa({ title, tagline });
	return {
		language: 'en',
		title,
		tagline,
		documents: {
			premise: { title: 'Premise', body: 'You arrive at the Saltglass Archive as its newest copyist.' },
			setting: { title: 'World Setting', body: settingBody() },
			pc: { title: 'PC Sheet', body: 'A copyist with ink-stained hands and a good memory.' }
		},
		gmNotesTitle: 'GM Notes',
		npcs: [
			{
				name: 'Ilse',
				role: 'Head archivist',
				appearance: 'A grey-haired woman in a long blue coat with brass spectacles.',
				personality: 'Precise, secretive, kind to beginners.'
			}
		],
		gmBehaviour: 'Keep a quiet, scholarly tone. Let the archive feel enormous.',
		plot: { title: 'Main Plot', body: 'The copyist uncovers the theft of the tide book.' },
		secrets: [
			{
				key: 'ilse-is-the-thief',
				title: 'The thief',
				body: 'Ilse took the tide book herself to keep it from the guild.',
				markers: [SECRET_MARKER]
			}
		],
		opening: {
			scene: { name: 'Reading Room', description: 'A tall reading room with green lamps and glass shelves.' },
			present: ['Ilse'],
			situation: 'Ilse greets the copyist at dawn.',
			state: { hp: 10 }
		}
	};
}

/** The same world written in Japanese (the Japanese screens show a Japanese world). */
function presetContentJa({ title, tagline }: PresetText): Record<string, unknown> {
	const setting = [
		'## 港町',
		'',
		'窓がすべて塩硝子でできた港町。',
		'',
		'## 書庫',
		'',
		'硝子の書架が七層に重なる。最上層は閉ざされている。',
		'',
		'## 地下の保管庫',
		'',
		`書庫の下には ${MARKER} の言葉で封じられた保管庫がある。`
	].join('\n');
	return {
		language: 'ja',
		title,
		tagline,
		documents: {
			premise: { title: '前提', body: 'あなたは塩硝子の書庫に、いちばん新しい写字生としてやって来た。' },
			setting: { title: '世界設定', body: setting },
			pc: { title: 'PCシート', body: '指にインクの染みた、記憶力のよい写字生。' }
		},
		gmNotesTitle: 'GMメモ',
		npcs: [
			{
				name: 'イルゼ',
				role: '書庫長',
				appearance: '長い青の外套に真鍮の眼鏡をかけた、白髪まじりの女性。',
				personality: '几帳面で秘密主義だが、新人には優しい。'
			}
		],
		gmBehaviour: '静かで学究的な語り口で。書庫の広大さを感じさせる。',
		plot: { title: 'メインプロット', body: '写字生は潮の書の盗難に気づいていく。' },
		secrets: [
			{
				key: 'ilse-is-the-thief',
				title: '盗んだ者',
				body: 'イルゼ自身が、ギルドから守るために潮の書を持ち出した。',
				markers: ['イルゼが潮の書を盗んだ']
			}
		],
		opening: {
			scene: { name: '閲覧室', description: '緑のランプと硝子の書架が並ぶ、天井の高い閲覧室。' },
			present: ['イルゼ'],
			situation: '夜明けにイルゼが写字生を迎える。',
			state: { hp: 10 }
		}
	};
}

export function settingBody(): string {
	return [
		'## The City',
		'',
		'A port city whose windows are made of salt glass.',
		'',
		'## The Archive',
		'',
		'Seven floors of glass shelves; the top floor is closed.',
		'',
		'## The Vault Below',
		'',
		`Beneath the archive lies a vault sealed with the word ${MARKER}.`
	].join('\n');
}

/** Fills the editor's fields (by their ids, which follow the field names). */
export async function fillEditor(page: Page, text: PresetText, opts: { appearance?: string } = {}): Promise<void> {
	const field = (name: string) => page.locator(`#f-${name.replace(/\./g, '-')}`);
	await page.locator('#f-language').selectOption('en');
	await field('title').fill(text.title);
	await field('tagline').fill(text.tagline);
	await field('documents.premise.body').fill('You arrive at the Saltglass Archive as its newest copyist.');
	await field('documents.setting.body').fill(settingBody());
	await field('documents.pc.body').fill('A copyist with ink-stained hands and a good memory.');
	await field('npcs.0.name').fill('Ilse');
	await field('npcs.0.role').fill('Head archivist');
	await field('npcs.0.appearance').fill(opts.appearance ?? 'A grey-haired woman in a long blue coat with brass spectacles.');
	await field('npcs.0.personality').fill('Precise, secretive, kind to beginners.');
	await page.getByLabel('On stage at the start').first().check();
	await field('opening.scene.name').fill('Reading Room');
	await field('opening.scene.description').fill('A tall reading room with green lamps and glass shelves.');
	await field('opening.situation').fill('Ilse greets the copyist at dawn.');
	await field('opening.state').fill('{"hp": 10}');
	await field('gmBehaviour').fill('Keep a quiet, scholarly tone. Let the archive feel enormous.');
	await field('plot.body').fill('The copyist uncovers the theft of the tide book.');
	await field('secrets.0.key').fill('ilse-is-the-thief');
	await field('secrets.0.title').fill('The thief');
	await field('secrets.0.body').fill('Ilse took the tide book herself to keep it from the guild.');
	await field('secrets.0.markers').fill(SECRET_MARKER);
}

/** The preset id from a preset page's URL. */
export function presetIdOf(page: Page): string {
	const id = /\/presets\/([a-z0-9-]+)(?:\?.*)?$/.exec(page.url())?.[1];
	if (!id) throw new Error(`not a preset page: ${page.url()}`);
	return id;
}

/** The session id from a play page's URL. */
export function sessionIdOf(page: Page): string {
	const id = /\/sessions\/([a-z2-7]{20})$/.exec(page.url())?.[1];
	if (!id) throw new Error(`not a play page: ${page.url()}`);
	return id;
}

/** Everything the signed-in user can read of a session through the API, as text (the event stream up to the last commit included). */
export async function playerVisibleText(page: Page, sessionId: string): Promise<string> {
	const base = `/api/v1/sessions/${sessionId}`;
	const parts: string[] = [];
	for (const path of ['', '/documents', '/backlog', '/messages', '/journal', '/journal/recent', '/state']) {
		const res = await page.request.get(base + path);
		expect(res.status()).toBe(200);
		parts.push(await res.text());
	}
	const docs: unknown = JSON.parse(parts[1] ?? '{}');
	const ids =
		typeof docs === 'object' && docs !== null && 'documents' in docs && Array.isArray(docs.documents)
			? docs.documents.map((d: { id: number }) => d.id)
			: [];
	for (const id of ids)
		parts.push(
			`${(await page.request.get(`${base}/documents/${id}`)).status()} ${await (await page.request.get(`${base}/documents/${id}`)).text()}`
		);
	parts.push(
		await page.evaluate(async (url) => {
			const controller = new AbortController();
			const res = await fetch(url, { signal: controller.signal });
			const reader = res.body?.getReader();
			const decoder = new TextDecoder();
			let out = '';
			const deadline = Date.now() + 10_000;
			while (reader && Date.now() < deadline && !out.includes('turn.committed')) {
				const { value, done } = await reader.read();
				if (done) break;
				out += decoder.decode(value);
			}
			controller.abort();
			return out;
		}, `${base}/events?lastEventId=0`)
	);
	return parts.join('\n');
}
