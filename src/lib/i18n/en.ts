/** English UI strings. The key set defines `MessageKey`; add a key here, then in ja.ts. */
export const en = {
	'language.name': 'English',
	'language.switch': 'Language',
	'common.save': 'Save',
	'common.cancel': 'Cancel',
	'common.close': 'Close',
	'common.loading': 'Loading…'
} as const;
