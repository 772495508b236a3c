/**
 * Importing: Character Card V2/V3 as JSON and as PNG (tEXt `chara` / `ccv3`), Kantera preset files,
 * and files that must be refused with a clear message. Cards are hand-written from the public specs
 * (tests/fixtures/cards); malformed ones are built here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exportPreset, importToForm, MAX_IMPORT_BYTES, PresetError, checkContent } from '../../../src/lib/server/presets';
import { formToInput } from '../../../src/lib/presets/form';
import { base64Json, cardPng, pngChunk } from '../../helpers/card-png';
import { presetInput } from './factory';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../fixtures/cards/${name}`, import.meta.url), 'utf8'));
const bytes = (value: unknown): Uint8Array => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));
const V2 = fixture('lighthouse-keeper.v2.json');
const V3 = fixture('tsukiyo-no-shoten.v3.json');

function refused(data: Uint8Array): string {
	try {
		importToForm(data);
	} catch (err) {
		if (err instanceof PresetError && err.code === 'bad_import') return err.message;
		throw err;
	}
	throw new Error('the import was accepted');
}

describe('Character Card V2', () => {
	it('maps the character to the NPC, scenario to the premise, first_mes to the opening narration, prompts to the GM behaviour', () => {
		const form = importToForm(bytes(V2));
		expect(form.language).toBe('en');
		expect(form.title).toBe('Mira Calloway');
		// Never the creator notes: those are the author's, and stay so.
		expect(form.tagline).toBe('You are shipwrecked on Calloway Rock, where Mira Calloway keeps the last working lighthouse of the coast.');
		expect(form.notes).toBe('A lonely lighthouse and the keeper who refuses to let it go out.');
		expect(form.documents.premise.body).toBe(
			'You are shipwrecked on Calloway Rock, where Mira Calloway keeps the last working lighthouse of the coast.'
		);
		expect(form.npcs).toHaveLength(1);
		const [npc] = form.npcs;
		expect(npc?.name).toBe('Mira Calloway');
		expect(npc?.personality).toContain('distrusts the harbour guild');
		expect(npc?.personality).toContain('A tall woman in her forties');
		expect(npc?.personality).toContain('Why is the lamp red?');
		expect(npc?.present).toBe(true);
		expect(form.gmBehaviour).toBe('Keep scenes short and weathered. Never let the storm stop.\n\nStay in character as Mira Calloway.');
		expect(form.opening.narration).toBe('Mira Calloway hauls you out of the surf. You picked a poor night to swim.');
		expect(form.opening.alternatives).toBe('## The lamp gutters.\n\nThe lamp gutters. You, fetch the oil.');
		expect(form.tags).toBe('sea, mystery');
		expect(form.attribution).toEqual({ creator: 'a test writer', version: '1.0', source: '' });
		expect(JSON.stringify({ ...form, card: '' })).not.toMatch(/\{\{(char|user)\}\}/);
	});

	it('reads the same card from a PNG’s `chara` chunk', () => {
		const { card: _fromPng, ...png } = importToForm(cardPng({ chara: base64Json(V2) }));
		const { card: _fromJson, ...json } = importToForm(bytes(V2));
		expect(png).toEqual(json);
	});
});

describe('Character Card V3', () => {
	it('turns lorebook entries into setting sections with headings, skipping disabled ones, and detects Japanese', () => {
		const form = importToForm(bytes(V3));
		expect(form.language).toBe('ja');
		expect(form.npcs[0]?.name).toBe('月夜堂の店主 ヨル');
		expect(form.documents.setting.body).toBe(
			'## 月夜堂\nキー：月夜堂、古書店\n\n路地の奥にある古書店。満月の夜だけ二階が開く。\n\n## 夢の本\nキー：夢の本\n\n読むと一晩だけ夢を見られる本。代金は思い出ひとつ。\n\n## 路地\nキー：路地、石畳\n\n石畳の細い路地。猫が多い。'
		);
		expect(form.documents.setting.body).not.toContain('無効な項目');
		expect(form.documents.premise.body).toBe('夜にしか開かない古書店「月夜堂」に、あなたが迷い込む。');
		// The nickname is what {{char}} stands for.
		expect(form.opening.narration).toBe(
			'@月夜堂の店主 ヨル: 「いらっしゃい。……こんな夜更けに、よく見つけましたね」\n\n古書店の主は本から顔を上げた。'
		);
	});

	it('prefers `ccv3` over `chara` when a PNG has both', () => {
		const form = importToForm(cardPng({ chara: base64Json(V2), ccv3: base64Json(V3) }));
		expect(form.title).toBe('月夜堂の店主 ヨル');
	});

	it('imports as a playable preset: what a card has no notion of gets a neutral default', () => {
		const form = importToForm(bytes(V3));
		const check = checkContent(formToInput(form), 'abcdefghijklmnopqrst');
		expect(check.ok ? [] : check.issues).toEqual([]);
	});
});

describe('preset files', () => {
	it('round-trips an export into a form that saves as the same preset', () => {
		const preset = { ...presetInput(), id: 'abcdefghijklmnopqrst' };
		const file = exportPreset(preset, Date.UTC(2031, 0, 1));
		expect(file).toMatchObject({ format: 'kantera.preset', formatVersion: 1, exportedAt: '2031-01-01T00:00:00.000Z' });
		expect(JSON.stringify(file)).not.toContain('abcdefghijklmnopqrst');
		const form = importToForm(bytes(file));
		const check = checkContent(formToInput(form), preset.id);
		expect(check.ok).toBe(true);
		if (check.ok) expect(check.preset).toEqual(preset);
	});

	it('refuses a file from a newer format version', () => {
		expect(refused(bytes({ format: 'kantera.preset', formatVersion: 2, preset: {} }))).toMatch(/format version 2/);
	});
});

describe('malformed files create nothing and say why', () => {
	it.each([
		['not JSON', bytes('{"spec": "chara_card_v2", '), /not valid JSON/],
		['a JSON array', bytes('[1, 2]'), /not a Kantera preset file, a Character Card/],
		['a wrong spec', bytes({ spec: 'chara_card_v9', data: { name: 'X' } }), /Unsupported card spec "chara_card_v9"/],
		['a card without a name', bytes({ spec: 'chara_card_v2', data: { description: 'nameless' } }), /malformed at data.name/],
		// A control character is refused as in every text field: SQLite would store the draft's title cut at the NUL.
		[
			'a NUL in the character name',
			bytes({ spec: 'chara_card_v2', data: { name: 'Mira\u0000 the keeper', description: 'x' } }),
			/malformed at data.name: The character name contains a control character \(such as NUL\)/
		],
		[
			'an escape character in a lorebook entry, in a PNG',
			cardPng({ ccv3: base64Json({ spec: 'chara_card_v3', data: { name: 'X', character_book: { entries: [{ content: 'a\u001bb' }] } } }) }),
			/malformed at data.character_book.entries.0.content: The text contains a control character/
		],
		[
			'a NUL in a preset file’s title',
			bytes({ format: 'kantera.preset', formatVersion: 1, preset: { title: 'Harbour\u0000 of Lanterns' } }),
			/malformed at title: The text contains a control character/
		],
		['bad base64 in the PNG', cardPng({ chara: 'this is not base64!!' }), /not valid base64/],
		['base64 of something that is not JSON', cardPng({ ccv3: Buffer.from('hello').toString('base64') }), /not valid JSON/],
		['a PNG without a card', cardPng({ Software: 'paint' }), /holds no character card/],
		[
			'a card too large for a draft',
			bytes({ spec: 'chara_card_v2', data: { name: 'Big', description: 'x'.repeat(500_000) } }),
			/too large to import/
		],
		['a file over the import limit', new Uint8Array(MAX_IMPORT_BYTES + 1), /larger than 8 MB/]
	])('%s', (_, data, message) => {
		expect(refused(data)).toMatch(message);
	});

	it('a damaged PNG: a bad checksum, a truncated chunk', () => {
		const good = cardPng({ chara: base64Json(V2) });
		const flipped = new Uint8Array(good);
		// Inside the tEXt chunk's data: 8 signature bytes, 25 of IHDR, 8 of the tEXt header.
		const at = 50;
		flipped[at] = (flipped[at] ?? 0) ^ 0xff;
		expect(refused(flipped)).toMatch(/checksum/);
		expect(refused(good.subarray(0, good.length - 20))).toMatch(/damaged/);
		const lying = new Uint8Array([...good.subarray(0, 8), ...pngChunk('tEXt', new Uint8Array(4)).subarray(0, 4), 0x74, 0x45, 0x58, 0x74]);
		expect(refused(lying)).toMatch(/damaged/);
	});
});
