import { describe, it, expect, vi } from 'vitest';
import { languageName, localeOf, pickLanguage, translate } from '../../src/lib/i18n/all-languages';
import { en } from '../../src/lib/i18n/en';
import { ja } from '../../src/lib/i18n/ja';

describe('i18n', () => {
	it('has every English key in Japanese, none empty', () => {
		expect(Object.keys(ja).sort()).toEqual(Object.keys(en).sort());
		for (const [k, value] of Object.entries(ja)) expect(value, k).not.toBe('');
	});
	it('picks the cookie, then the browser language by q, then English', () => {
		expect(pickLanguage('ja', 'en-US')).toBe('ja');
		expect(pickLanguage(undefined, 'fr-FR,ja;q=0.8,en;q=0.5')).toBe('ja');
		expect(pickLanguage(undefined, 'en;q=0.2, ja-JP;q=0.9')).toBe('ja');
		expect(pickLanguage('de', 'de, fr')).toBe('en');
		expect(pickLanguage(undefined, null)).toBe('en');
	});
	it('fills placeholders', () => {
		expect(translate('en', 'play.error.tooLong', { length: 5001, max: 5000 })).toBe('The text is 5001 characters; the limit is 5000.');
		expect(translate('ja', 'play.status.tool', { tool: 'recall' })).toBe('ゲームマスターが記録を調べています（recall）…');
		expect(translate('ja', 'images.failed', { name: 'Mira', error: '$& $1' })).toBe('Mira を再生成できませんでした: $& $1');
	});
	it('leaves an unknown placeholder visible', () => {
		expect(translate('ja', 'play.status.tool')).toBe('ゲームマスターが記録を調べています（{tool}）…');
	});
	it('writes dates and numbers in one locale per language', () => {
		expect(localeOf('ja')).toBe('ja-JP');
		expect(localeOf('en')).toBe('en-US');
	});
	it('names each language in itself, as its own table does', () => {
		expect(languageName('en')).toBe(en['language.name']);
		expect(languageName('ja')).toBe(ja['language.name']);
	});
	it('holds no table until one is loaded, and loads only the one asked for', async () => {
		// A fresh copy of the module, as a browser page starts it: nothing registered yet.
		vi.resetModules();
		const core = await import('../../src/lib/i18n/index');
		expect(() => core.translate('ja', 'common.save')).toThrow(/ja UI strings are not loaded/);
		await core.loadMessages('ja');
		expect(core.translate('ja', 'common.save')).toBe('保存');
		expect(() => core.translate('en', 'common.save')).toThrow(/en UI strings are not loaded/);
		expect(core.languageName('en')).toBe('English');
		// This suite's own copy (with every table) is untouched by the fresh one.
		expect(translate('en', 'common.save')).toBe('Save');
	});
});
