/**
 * Schema messages in the language the parse was given (valibot's `lang`), English without one: pages
 * answer in the reader's language (they pass `locals.language`), the CLI and the API in English.
 */
import type * as v from 'valibot';
import { translate, type MessageKey } from '../../i18n/all-languages';
import { isLanguage } from '../../types/settings';

export function said(key: MessageKey, params?: Record<string, number>) {
	return (issue: v.BaseIssue<unknown>) => translate(isLanguage(issue.lang) ? issue.lang : 'en', key, params);
}
