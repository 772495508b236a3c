/** The import report as it is written: where each field went, what was dropped and why. */
import type { ImportDropCode, ImportReport } from '../../../types/presets';

const WHY: Record<ImportDropCode, string> = {
	empty: 'empty in the file',
	keptForExport: 'Kantera has no use for it; kept with the preset and written back on export',
	disabled: 'disabled in the file; kept for export',
	picture: 'the picture could not be taken as art',
	assets: 'this asset did not become art; kept in the card data for export',
	decorators: 'lorebook decorators have no meaning here; removed from the text',
	replaced: 'replaced by the entry of the same name from the file',
	notPlayed: 'kept with the preset; Kantera does not play it',
	tooLargeToKeep: 'too large to keep for export beside the preset; not written back on export'
};

/** Report rows at most: a lorebook at its largest has one row per entry, and a few for the card. */
const MAX_ROWS = 1_900;

export class ReportBuilder {
	private readonly report: ImportReport = { mapped: [], dropped: [], defaults: [] };

	map(from: string, to: string): this {
		if (this.report.mapped.length < MAX_ROWS) this.report.mapped.push({ from, to });
		return this;
	}

	drop(field: string, code: ImportDropCode, detail?: string): this {
		if (this.report.dropped.length < MAX_ROWS)
			this.report.dropped.push({ field, code, why: detail ? `${WHY[code]} (${detail})` : WHY[code] });
		return this;
	}

	/** A preset field the file has no notion of, given a neutral default. */
	fill(to: string): this {
		this.report.defaults.push(to);
		return this;
	}

	build(): ImportReport {
		return { mapped: [...this.report.mapped], dropped: [...this.report.dropped], defaults: [...this.report.defaults] };
	}
}
