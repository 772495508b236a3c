import type { Messages } from './index';

/** Japanese UI strings: every key of en.ts (a missing one is a type error). */
export const ja: Messages = {
	'language.name': '日本語',
	'language.switch': '言語',
	'common.save': '保存',
	'common.cancel': 'キャンセル',
	'common.close': '閉じる',
	'common.loading': '読み込み中…'
};
