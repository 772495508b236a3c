/**
 * Cards and lorebooks in and out: an import that keeps meaning, with a report of every field; World
 * Info files alone; card exports as JSON, PNG and CHARX; round trips. The files are written by hand
 * from the specs (tests/fixtures/cards/README.md), shaped like the real ones authors bring.
 */
import { readFileSync } from 'node:fs';
import { zipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { checkContent, importFile, PresetError } from '../../../src/lib/server/presets';
import { exportAs } from '../../../src/lib/server/presets/card-export';
import { formToInput } from '../../../src/lib/presets/form';
import { base64Json, cardPng } from '../../helpers/card-png';
import { presetInput } from './factory';

const fixtureText = (name: string) => readFileSync(new URL(`../../fixtures/cards/${name}`, import.meta.url), 'utf8');
const bytes = (value: unknown): Uint8Array => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));
const GLADE = JSON.parse(fixtureText('glade-warden.v2.json')) as { data: Record<string, unknown> };
const WORLD_INFO = fixtureText('vale-of-lanterns.world-info.json');
const ID = 'abcdefghijklmnopqrst';

function refused(data: Uint8Array): string {
	try {
		importFile(data);
	} catch (err) {
		if (err instanceof PresetError && err.code === 'bad_import') return err.message;
		throw err;
	}
	throw new Error('the import was accepted');
}

function saved(form: ReturnType<typeof importFile>['form']) {
	const check = checkContent(formToInput(form), ID);
	if (!check.ok) throw new Error(JSON.stringify(check.issues));
	return check.preset;
}

describe('a real-sized companion card', () => {
	const { form, report } = importFile(cardPng({ chara: base64Json(GLADE) }));
	const to = (from: string) => report.mapped.filter((m) => m.from === from).map((m) => m.to);
	const why = (field: string) => report.dropped.find((d) => d.field === field)?.code;

	it('gives the player the greeting, after the title card, and keeps the creator notes the author’s', () => {
		expect(to('data.first_mes')).toEqual(['opening.narration']);
		expect(form.opening.narration).toContain('You wake to the smell of crushed mint and rain.');
		expect(form.opening.narration).toContain('@Ysolde: "Easy now.');
		expect(form.opening.situation).not.toContain('crushed mint');
		expect(form.notes).toBe(GLADE.data.creator_notes);
		expect(form.tagline).not.toContain('contest');
		expect(to('data.creator_notes')).toEqual(['notes']);
	});

	it('moves a labelled look out of the description, keeps the rest GM-only, and saves as a playable preset without secrets', () => {
		expect(form.npcs[0]?.appearance).toContain('silver-grey hair braided with ivy');
		expect(form.npcs[0]?.personality).not.toContain('silver-grey hair');
		expect(form.npcs[0]?.personality).toContain('warden of the Hollow Glade');
		const preset = saved(form);
		expect(preset.secrets).toEqual([]);
		expect(preset.tags).toEqual(['Fantasy', 'Companion', 'Female', 'Magic']);
		expect(preset.attribution).toEqual({ creator: 'A community card writer', version: '1.2', source: [] });
	});

	it('turns the lorebook into setting sections whose keys stay searchable, and says what it dropped and why', () => {
		expect(form.documents.setting.body).toContain('## The Hollow Glade\nKeys: glade, hollow glade, stones\n');
		expect(form.documents.setting.body).not.toContain('@@depth');
		expect(to('data.character_book.entries.0')).toEqual(['documents.setting.body › The Hollow Glade']);
		expect(why('data.character_book.entries.3.content')).toBe('decorators');
		expect(why('data.extensions.world')).toBe('keptForExport');
		// The card's own picture is the NPC's portrait.
		expect(to('PNG image')).toEqual([`art.npcs.${form.npcs[0]?.name ?? ''}.default`]);
		expect(why('data.scenario')).toBe('empty');
		expect(report.defaults).toEqual(expect.arrayContaining(['documents.pc.body', 'plot.body', 'opening.scene.name']));
	});

	it('exports as a card that gives back every field it came with, unknown ones included', () => {
		const preset = { ...saved(form), id: ID };
		const card = JSON.parse(new TextDecoder().decode(exportAs(preset, 'ccv3', undefined).body)) as {
			spec: string;
			data: Record<string, unknown>;
		};
		expect(card.spec).toBe('chara_card_v3');
		for (const [field, value] of Object.entries(GLADE.data)) {
			if (field === 'extensions') continue;
			expect({ field, value: card.data[field] }).toEqual({ field, value });
		}
		const { kantera, ...extensions } = card.data.extensions as Record<string, unknown>;
		expect(extensions).toEqual(GLADE.data.extensions);
		expect(kantera).toBeDefined();
	});
});

describe('a SillyTavern World Info file alone', () => {
	const { form, report } = importFile(bytes(WORLD_INFO), 'Vale of Lanterns.json');

	it('becomes a draft named after the file, entries as sections in their order, the constant one always in mind', () => {
		expect(form.title).toBe('Vale of Lanterns');
		const headings = form.documents.setting.body.match(/^## .+$/gm) ?? [];
		expect(headings.slice(0, 4)).toEqual(['## Vale of Lanterns', '## Lantern Wardens', '## The Drowned Bell', '## Old Mother Ash']);
		expect(form.documents.setting.body).toContain('## Vale of Lanterns\nKeys (always): vale, lanterns, valley');
		expect(form.documents.setting.body).not.toContain('switched off');
		expect(report.dropped.find((d) => d.field === 'entries.4')?.code).toBe('disabled');
		saved(form);
	});

	it('reads entries given as an array, and CCv3 lorebook_v3 files, the same way', () => {
		const file = JSON.parse(WORLD_INFO) as { entries: Record<string, unknown> };
		const asArray = importFile(bytes({ entries: Object.values(file.entries) }), 'Vale of Lanterns.json');
		expect(asArray.form.documents.setting.body).toBe(form.documents.setting.body);
		const v3 = importFile(
			bytes({
				spec: 'lorebook_v3',
				data: { name: 'Vale', entries: [{ keys: ['bell'], content: 'It rings below.', name: 'Bell', insertion_order: 0, enabled: true }] }
			})
		);
		expect(v3.form.documents.setting.body).toContain('## Bell\nKeys: bell\n\nIt rings below.');
	});
});

describe('round trips', () => {
	it('preset → card (JSON, PNG, CHARX) → preset is the same preset', () => {
		const preset = { ...presetInput(), id: ID };
		for (const format of ['ccv3', 'png', 'charx'] as const) {
			const file = exportAs(preset, format, undefined, Date.UTC(2031, 0, 1));
			expect({ format, preset: saved(importFile(file.body).form) }).toEqual({ format, preset: { ...preset, id: ID } });
		}
	});

	it('a card changed elsewhere after export is read as a card, not as the stale preset', () => {
		const preset = { ...presetInput(), id: ID };
		const card = JSON.parse(new TextDecoder().decode(exportAs(preset, 'ccv3', undefined).body)) as { data: Record<string, unknown> };
		card.data.name = 'Renamed elsewhere';
		expect(importFile(bytes(card)).form.title).toBe('Renamed elsewhere');
	});
});

describe('hostile files are refused with a clear message, and nothing is read past the limits', () => {
	const zip = (files: Record<string, Uint8Array>) => zipSync(files, { level: 9 });
	const card = strToU8(JSON.stringify({ spec: 'chara_card_v3', spec_version: '3.0', data: { name: 'X' } }));

	it.each([
		['a CHARX with a path climbing out', () => zip({ 'card.json': card, '../../etc/passwd': strToU8('x') }), /points outside the archive/],
		['a CHARX with an absolute path', () => zip({ 'card.json': card, '/abs.png': strToU8('x') }), /points outside the archive/],
		['a CHARX inside a CHARX', () => zip({ 'card.json': card, 'assets/other.charx': strToU8('x') }), /archives inside archives/],
		['a zip bomb', () => zip({ 'card.json': card, 'assets/bomb.bin': new Uint8Array(2 * 1024 * 1024) }), /zip bomb/],
		[
			'a CHARX of 300 files',
			() =>
				zip(
					Object.fromEntries<Uint8Array>([
						['card.json', card],
						...Array.from({ length: 300 }, (_, i): [string, Uint8Array] => [`assets/${i}.png`, strToU8('x')])
					])
				),
			/more than 256 files/
		],
		['a CHARX without card.json', () => zip({ 'assets/icon.png': strToU8('x') }), /no card.json/],
		[
			'10,000 lorebook entries',
			() => bytes({ entries: Array.from({ length: 10_000 }, (_, i) => ({ key: [`k${i}`], content: 'x' })) }),
			/10000 entries; Kantera imports at most 1000/
		],
		['JSON nested 5,000 deep', () => bytes(`${'['.repeat(5_000)}${']'.repeat(5_000)}`), /more than 40 levels deep/]
	])('%s', (_name, make, message) => {
		expect(refused(make())).toMatch(message);
	});

	it('keeps scripts in card text as text: nothing is interpreted, the leak-free fields carry them verbatim', () => {
		const script = '<script>alert(1)</script>';
		const { form } = importFile(
			bytes({ spec: 'chara_card_v2', data: { name: `Eve${script}`, first_mes: script, creator_notes: script, tags: [script] } })
		);
		expect(form.notes).toBe(script);
		expect(form.opening.narration).toContain('alert(1)');
	});
});
