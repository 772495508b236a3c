/**
 * The UI language of each request: the `kantera_lang` cookie (the switch in the nav), else the
 * browser's Accept-Language, else English. Pages read it from `locals.language`; the document's
 * `<html lang>` is set here, so screen readers pronounce the page in the right language.
 */
import type { Handle } from '@sveltejs/kit';
import { LANGUAGE_COOKIE, pickLanguage } from '../../i18n/all-languages';

/** The placeholder in `src/app.html`. */
const LANG_PLACEHOLDER = '%kantera.lang%';

export const handleLanguage: Handle = async ({ event, resolve }) => {
	const language = pickLanguage(event.cookies.get(LANGUAGE_COOKIE), event.request.headers.get('accept-language'));
	event.locals.language = language;
	return resolve(event, { transformPageChunk: ({ html }) => html.replace(LANG_PLACEHOLDER, language) });
};
