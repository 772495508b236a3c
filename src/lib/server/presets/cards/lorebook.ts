/**
 * A lorebook alone (World Info, `lorebook_v3`, a bare `character_book`) as a new draft preset, or
 * merged into an author's preset: its entries become world-setting sections (lore.ts); an entry
 * named like a section already there replaces that section's text, the others are added after the
 * setting's own, in the file's order. The entries' own fields are kept for export either way.
 */
import * as v from 'valibot';
import { CardKeepSchema, MIN_SETTING_HEADINGS, type CardKeep } from '../../worlds';
import { emptyForm, type PresetForm } from '../../../presets/form';
import { DEFAULTS, languageOf } from './defaults';
import { sectionMarkdown } from './lore';
import { ReportBuilder } from './report';
import type { ExchangeFile } from './spec';
import { loreToSetting, oneLine, type Imported } from './to-preset';

type LorebookFile = Extract<ExchangeFile, { kind: 'lorebook' }>;

const MAX_TITLE = 200;
const TOP_HEADING = /^ {0,3}(#{1,6})[ \t\u3000]+(.+?)[ \t\u3000]*#*[ \t\u3000]*$/;

/** The markdown cut at its outermost headings: a block before the first (title null), then one per heading. */
function blocks(markdown: string): { title: string | null; text: string }[] {
	const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
	const levels = lines.map((l) => TOP_HEADING.exec(l)?.[1]?.length ?? 0).filter((n) => n > 0);
	const top = levels.length > 0 ? Math.min(...levels) : 0;
	const out: { title: string | null; lines: string[] }[] = [{ title: null, lines: [] }];
	for (const line of lines) {
		const m = TOP_HEADING.exec(line);
		if (m?.[1]?.length === top && m[2]) out.push({ title: m[2], lines: [line] });
		else out[out.length - 1]?.lines.push(line);
	}
	return out.map((b) => ({ title: b.title, text: b.lines.join('\n').trim() })).filter((b) => b.text !== '');
}

function keepOfForm(form: PresetForm, spec: string): Omit<CardKeep, 'report'> {
	if (form.card.trim() === '') return { spec, data: {}, top: {}, lore: {} };
	let parsed: unknown;
	try {
		parsed = JSON.parse(form.card);
	} catch {
		parsed = undefined;
	}
	const keep = v.safeParse(CardKeepSchema, parsed);
	return keep.success ? keep.output : { spec, data: {}, top: {}, lore: {} };
}

/** The lorebook's entries merged into `form`'s world setting (see the module comment). */
export function mergeLorebook(form: PresetForm, file: LorebookFile): Imported & { keep: CardKeep } {
	const report = new ReportBuilder();
	const char = form.npcs[0]?.name.trim() || DEFAULTS[form.language].lorebookNpc;
	const lore = loreToSetting(file.entries, form.language, char, report);
	const existing = blocks(form.documents.setting.body);
	for (const section of lore.sections) {
		const text = sectionMarkdown({ ...section, keys: section.entry.keys, always: section.entry.constant }, form.language);
		const same = existing.find((b) => b.title !== null && b.title.toLowerCase() === section.title.toLowerCase());
		if (same) {
			same.text = text;
			report.drop(`documents.setting.body › ${section.title}`, 'replaced');
		} else existing.push({ title: section.title, text });
	}
	const keep = keepOfForm(form, file.spec);
	const merged: CardKeep = {
		...keep,
		lore: { ...keep.lore, ...Object.fromEntries(lore.sections.map((s) => [s.title, s.entry.extra])) },
		report: report.build()
	};
	const body = existing.map((b) => b.text).join('\n\n');
	return {
		form: { ...form, documents: { ...form.documents, setting: { ...form.documents.setting, body } }, card: JSON.stringify(merged) },
		report: merged.report,
		keep: merged
	};
}

/** The lorebook as a new draft: its sections as the setting, neutral defaults for the rest (`title`: the file's name, if any). */
export function lorebookToPreset(file: LorebookFile, title: string): Imported {
	const language = languageOf(file.entries.map((e) => `${e.name}${e.content}`).join(''));
	const d = DEFAULTS[language];
	const form = emptyForm(language);
	const name = oneLine(title || file.name || d.lorebookTitle, MAX_TITLE);
	const base: PresetForm = {
		...form,
		title: name,
		tagline: name,
		documents: {
			premise: { ...form.documents.premise, body: d.premise(d.lorebookNpc) },
			setting: { ...form.documents.setting, body: '' },
			pc: { ...form.documents.pc, body: d.pc }
		},
		npcs: [{ name: d.lorebookNpc, role: d.role, appearance: d.look, personality: d.personality(d.lorebookNpc), present: true }],
		gmBehaviour: d.gmBehaviour(d.lorebookNpc),
		plot: { ...form.plot, body: d.plot(d.lorebookNpc) },
		secrets: [],
		opening: { ...form.opening, scene: { name: d.scene, description: d.sceneLook }, situation: d.situation(d.lorebookNpc) }
	};
	const merged = mergeLorebook(base, file);
	const sections = blocks(merged.form.documents.setting.body).length;
	const padding = [
		`## ${d.scene}\n\n${d.sceneLook}`,
		`## ${d.overview}\n\n${d.premise(d.lorebookNpc)}`,
		`## ${d.lorebookNpc}\n\n${d.role}.`
	];
	const body = [merged.form.documents.setting.body, ...padding.slice(0, Math.max(0, MIN_SETTING_HEADINGS - sections))]
		.filter((s) => s !== '')
		.join('\n\n');
	const report = {
		...merged.report,
		defaults: [
			'title',
			'tagline',
			'documents.premise.body',
			'documents.pc.body',
			'npcs.0',
			'gmBehaviour',
			'plot.body',
			'opening.scene',
			'opening.situation'
		]
	};
	const keep: CardKeep = { ...merged.keep, top: file.top, report };
	return {
		form: {
			...merged.form,
			documents: { ...merged.form.documents, setting: { ...merged.form.documents.setting, body } },
			card: JSON.stringify(keep)
		},
		report
	};
}
