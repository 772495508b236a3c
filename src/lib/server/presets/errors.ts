/**
 * Errors of the presets capability. `not_found` covers "does not exist", "private and not yours"
 * and "taken down and not yours" alike, so a private preset can't be told apart from no preset.
 */
import { translate, type MessageKey } from '../../i18n/all-languages';
import type { ContentIssueDto } from '../../types/presets';
import type { Language } from '../../types/settings';

export type PresetErrorCode =
	/** Unknown, or not visible to this user. */
	| 'not_found'
	/** Visible, but only its author may do this. */
	| 'forbidden'
	/** An official preset: it ships with the app and can't be edited, deleted or reported. */
	| 'read_only'
	/** The content (or a visibility change) breaks a rule; `fields` says where when it can. */
	| 'invalid'
	/** Only a draft so far: nothing to play or publish until it is saved as a valid preset. */
	| 'not_playable'
	/** Too many publications in the window. */
	| 'rate_limited'
	/** An imported file that is not a preset, card or card PNG, or one that is broken. */
	| 'bad_import'
	/** An uploaded image that is not a PNG, JPEG or WebP, is broken, or is too large. */
	| 'bad_image'
	/** An uploaded sound that is not an OGG, MP3 or M4A, is broken, or is too large. */
	| 'bad_audio';

export interface PresetErrorDetails {
	/** For `invalid` content: every problem, on its field. */
	readonly issues?: readonly ContentIssueDto[];
	/** For `rate_limited`: when the next publication is allowed. */
	readonly retryAt?: Date;
	/** The message as an i18n key, for pages that word it in the reader's language (`message` is its English). */
	readonly wording?: Wording;
}

export interface Wording {
	readonly key: MessageKey;
	readonly params: Readonly<Record<string, string | number>>;
}

export class PresetError extends Error {
	constructor(
		readonly code: PresetErrorCode,
		message: string,
		readonly details: PresetErrorDetails = {}
	) {
		super(message);
		this.name = 'PresetError';
	}
}

/** A refused import: its English message for the API and the CLI, and its key for a page to word. */
export function importError(key: MessageKey, params: Record<string, string | number> = {}): PresetError {
	return new PresetError('bad_import', translate('en', key, params), { wording: { key, params } });
}

/** The error's message in `language` where it has a wording, else its English message. */
export function presetErrorText(err: PresetError, language: Language): string {
	const wording = err.details.wording;
	return wording ? translate(language, wording.key, wording.params) : err.message;
}

export function isPresetError(err: unknown, code?: PresetErrorCode): err is PresetError {
	return err instanceof PresetError && (code === undefined || err.code === code);
}
