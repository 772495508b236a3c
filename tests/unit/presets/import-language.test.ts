/**
 * A refused import is said in the reader's language on the presets page and in English to the API
 * and the CLI: every reason carries an i18n key, its English message unchanged.
 */
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { ImportFileSchema, importToForm, MAX_IMPORT_BYTES, PresetError, presetErrorText } from '../../../src/lib/server/presets';
import { base64Json, cardPng } from '../../helpers/card-png';

const bytes = (value: unknown): Uint8Array => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));
const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;

function refusal(data: Uint8Array): PresetError {
	try {
		importToForm(data);
	} catch (err) {
		if (err instanceof PresetError && err.code === 'bad_import') return err;
		throw err;
	}
	throw new Error('the import was accepted');
}

describe('a refused import in the reader’s language', () => {
	it.each([
		['not JSON', bytes('{"spec": '), 'The file is not valid JSON.', 'ファイルが正しい JSON ではありません。'],
		[
			'not a known format',
			bytes('[1, 2]'),
			'This file is not a Kantera preset file, a Character Card V2/V3 (JSON) or a card PNG.',
			'このファイルは Kantera のプリセットファイルでも、キャラクターカード V2/V3（JSON）でも、カード PNG でもありません。'
		],
		[
			'a wrong spec',
			bytes({ spec: 'chara_card_v9', data: {} }),
			'Unsupported card spec "chara_card_v9": Kantera imports "chara_card_v2" and "chara_card_v3".',
			'対応していないカードの spec です（"chara_card_v9"）。Kantera が読み込めるのは "chara_card_v2" と "chara_card_v3" です。'
		],
		[
			'bad base64 in a PNG',
			cardPng({ chara: 'not base64!!' }),
			'The card in the PNG\'s "chara" chunk is not valid base64.',
			'PNG の「chara」チャンクのカードが正しい base64 ではありません。'
		],
		[
			'a PNG without a card',
			cardPng({ Software: 'paint' }),
			'This PNG holds no character card (no "ccv3" or "chara" text chunk).',
			'この PNG にはキャラクターカードが入っていません（「ccv3」も「chara」のテキストチャンクもありません）。'
		],
		[
			'a newer preset file',
			bytes({ format: 'kantera.preset', formatVersion: 2, preset: {} }),
			'This preset file has format version 2; this Kantera reads version 1. Update Kantera to import it.',
			'このプリセットファイルの形式はバージョン 2 です。この Kantera が読めるのはバージョン 1 までです。Kantera を更新してから読み込んでください。'
		],
		[
			'a file over the limit',
			new Uint8Array(MAX_IMPORT_BYTES + 1),
			'The file is larger than 8 MB, the most an import takes.',
			'ファイルが 8 MB を超えています。読み込めるのは 8 MB までです。'
		]
	])('%s: English for the API, Japanese for a Japanese reader', (_, data, english, japanese) => {
		const err = refusal(data);
		expect(err.message).toBe(english);
		expect(presetErrorText(err, 'en')).toBe(english);
		expect(presetErrorText(err, 'ja')).toBe(japanese);
	});

	it('a damaged PNG and a malformed card keep the details and word the sentence', () => {
		const good = cardPng({ chara: base64Json({ spec: 'chara_card_v2', data: { description: 'nameless' } }) });
		const damaged = refusal(good.subarray(0, good.length - 20));
		expect(damaged.message).toMatch(/^The PNG file is damaged \(.+\); export the card again\.$/);
		expect(presetErrorText(damaged, 'ja')).toMatch(/^PNG ファイルが壊れています（.+）。カードを書き出し直してください。$/);
		const malformed = refusal(bytes({ spec: 'chara_card_v2', data: { description: 'nameless' } }));
		expect(malformed.message).toMatch(/^The chara_card_v2 card is malformed at data\.name: /);
		expect(presetErrorText(malformed, 'ja')).toMatch(/^chara_card_v2 のカードの data\.name の形が正しくありません: /);
	});

	it('the uploaded file’s own checks follow the parse’s language, English without one', () => {
		const empty = new File([], 'empty.json');
		const en = v.safeParse(ImportFileSchema, empty);
		const ja = v.safeParse(ImportFileSchema, empty, { lang: 'ja' });
		expect(en.success ? '' : en.issues[0].message).toBe('The file is empty.');
		expect(ja.success ? '' : ja.issues[0].message).toBe('ファイルが空です。');
		const none = v.safeParse(ImportFileSchema, null, { lang: 'ja' });
		expect(none.success ? '' : none.issues[0].message).toBe('読み込むファイルを選んでください。');
	});

	it('an error without a wording keeps its English', () => {
		const err = new PresetError('forbidden', 'Only its author can change a preset.');
		expect(presetErrorText(err, 'ja')).toBe('Only its author can change a preset.');
		expect(JAPANESE.test(presetErrorText(refusal(bytes('[1]')), 'ja'))).toBe(true);
	});
});
