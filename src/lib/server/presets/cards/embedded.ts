/**
 * A card Kantera exported carries the whole preset in `extensions.kantera`, with the fingerprint of
 * the card's fields as exported. Read back while that fingerprint still holds (nobody changed the
 * card since), it is the very preset: a preset → card → preset round trip is exact. A card changed
 * elsewhere is read like any other card.
 */
import * as v from 'valibot';
import { isJsonObject, type JsonObject } from '../../records';
import { PresetFormSchema, type PresetForm } from '../../../presets/form';
import type { WorldPreset } from '../../worlds';
import { contentOf } from '../content';
import { importError } from '../errors';
import { exportPreset, presetFileToForm } from '../exchange';
import { cardFingerprint } from './from-preset';
import type { ParsedCard } from './spec';
import type { Imported } from './to-preset';

/** What goes in `extensions.kantera`: the preset file, with the card's fingerprint. */
export function embedOf(preset: WorldPreset, now: number): (fingerprint: string) => JsonObject {
	const file = exportPreset(preset, now);
	return (fingerprint) => ({
		format: file.format,
		formatVersion: file.formatVersion,
		fingerprint,
		preset: JSON.parse(JSON.stringify(contentOf(preset))) as JsonObject
	});
}

export function fromEmbedded(card: ParsedCard): Imported | null {
	const extensions = card.raw.extensions;
	const kantera = isJsonObject(extensions ?? null) ? (extensions as JsonObject).kantera : undefined;
	if (!isJsonObject(kantera ?? null)) return null;
	const embedded = kantera as JsonObject;
	if (embedded.fingerprint !== cardFingerprint(card.raw)) return null;
	try {
		const form = presetFileToForm({ format: embedded.format, formatVersion: embedded.formatVersion, preset: embedded.preset });
		return { form, report: { mapped: [{ from: 'data.extensions.kantera', to: 'preset' }], dropped: [], defaults: [] } };
	} catch {
		// A broken copy is no reason to refuse the card: it is read as a card instead.
		return null;
	}
}

/** The form within a draft's bounds, or PresetError('bad_import') saying where it is too large. */
export function boundedForm(form: PresetForm): PresetForm {
	const bounded = v.safeParse(PresetFormSchema, form);
	if (!bounded.success) {
		throw importError('import.error.cardTooLarge', { path: v.getDotPath(bounded.issues[0]) ?? 'card', detail: bounded.issues[0].message });
	}
	return bounded.output;
}
