/**
 * What an import keeps for a lossless export (worlds/authoring.ts `card`): every card field the
 * preset would not give back as it came, with the fingerprint of what it gives instead (export puts
 * the value back while that still holds), the fields beside `data`, and each lorebook entry's own
 * fields by the section it became. What is too large to keep beside the preset is let go, largest
 * first, and the report says so.
 */
import type { JsonObject, JsonValue } from '../../records';
import { MAX_CARD_KEEP_BYTES, type CardKeep } from '../../worlds';
import type { ImportReport } from '../../../types/presets';
import { cardFields, fingerprint, type CardSource } from './from-preset';
import type { ReportBuilder } from './report';

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).byteLength;
/** Room left for the report and the entries' fields when deciding what card fields fit. */
const REPORT_ROOM = 60_000;

export interface KeepInput {
	readonly spec: string;
	/** The card's `data` (a lorebook alone: none). */
	readonly data: JsonObject;
	readonly top: JsonObject;
	/** Each lorebook section's entry fields, by title. */
	readonly lore: Record<string, JsonObject>;
}

/** The keep for `input`, `preset` being what the import made (the report gets a row for each value let go). */
export function keepOf(input: KeepInput, preset: CardSource, report: ReportBuilder): Omit<CardKeep, 'report'> {
	const fields = cardFields(preset);
	const data: CardKeep['data'] = {};
	for (const [name, value] of Object.entries(input.data)) {
		if (name === 'extensions') {
			const { kantera: _kantera, ...rest } = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
			data.extensions = { value: rest, shown: '' };
			continue;
		}
		const given = fields[name];
		if (given === undefined || JSON.stringify(given) !== JSON.stringify(value)) data[name] = { value, shown: fingerprint(given) };
	}
	const keep = { spec: input.spec, data, top: input.top, lore: input.lore };
	// Largest first, until the keep fits beside its report.
	const order = Object.entries(data).sort(([, a], [, b]) => bytes(b.value) - bytes(a.value));
	for (const [name] of order) {
		if (bytes(keep) <= MAX_CARD_KEEP_BYTES - REPORT_ROOM) break;
		Reflect.deleteProperty(data, name);
		report.drop(`data.${name}`, 'tooLargeToKeep');
	}
	if (bytes(keep) > MAX_CARD_KEEP_BYTES - REPORT_ROOM) {
		keep.lore = {};
		keep.top = {};
		report.drop('data.character_book.entries', 'tooLargeToKeep');
	}
	return keep;
}

/** The keep with its report, as the preset stores it. */
export function withReport(keep: Omit<CardKeep, 'report'>, report: ImportReport): CardKeep {
	return { ...keep, report };
}

/** A JSON object's entries, for the report's rows on fields kept as they were. */
export function keptRows(prefix: string, value: JsonValue | undefined): string[] {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
	return Object.keys(value).map((k) => `${prefix}.${k}`);
}
