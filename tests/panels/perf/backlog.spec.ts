/**
 * The backlog and side panels in real Chromium, on the harness page, with a 5,000-message play log
 * answered by the test (same paging, cues and stageBefore rules as GET …/backlog).
 *
 * Figures (open time, long tasks while scrolling through the whole log) are measured and written to
 * test-results/panels/backlog-perf.json and the console; the assertions are about behaviour only
 * (bounded DOM, correct stage replay, no script from a document), never about time.
 */
import { expect, test, type Page, type Route } from '@playwright/test';
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StageTimeline, type MessageCue, type StageCue } from '../../../src/lib/adv';
import type { LogPageDto, MessageDto } from '../../../src/lib/types/log';
import * as v from 'valibot';
import { HARNESS_DIST } from '../harness/paths';

/** What the harness page stores in `window.__selection` when the backlog picks a line. */
const Selection = v.object({ stage: v.looseObject({ speaker: v.unknown() }), messageId: v.number(), paragraph: v.number() });

const MESSAGES = 5_000;
const LONG_TASK_MS = 50;
const ORIGIN = 'http://harness.test';
const at = '2026-01-01T00:00:00.000Z';

function buildLog() {
	const people = ['Bram', 'Ana', 'Kit', 'Old Sal', 'アナ'];
	const places = ['Harbour', 'Lighthouse', 'Tavern', '北門'];
	const messages: MessageDto[] = [];
	const cues: MessageCue[] = [];
	for (let id = 1; id <= MESSAGES; id++) {
		const t = Math.floor(id / 2);
		if (id % 2 === 1) {
			messages.push({
				id,
				role: 'player',
				speaker: null,
				body: `I look around the ${places[t % places.length]} (${t}).`,
				turnId: `t${t}`,
				createdAt: at
			});
			continue;
		}
		const who = people[t % people.length] ?? 'Bram';
		const long =
			t % 7 === 0 ? ' The fog rolls in from the sea, thick and grey, and the lamps along the quay blur into soft halos.'.repeat(4) : '';
		messages.push({
			id,
			role: 'gm',
			speaker: null,
			body: `The fog thickens (${t}).${long}\n\n@${who}(wary): Who goes there? Line ${t}.\n\nA gull cries.`,
			turnId: `t${t}`,
			createdAt: at
		});
		const list: StageCue[] =
			t % 4 === 0
				? [
						{ paragraph: 0, action: 'background', scene: places[t % places.length] ?? 'Harbour' },
						{ paragraph: 1, action: 'enter', character: who, slot: (['left', 'center', 'right'] as const)[t % 3] ?? 'left' }
					]
				: t % 4 === 2
					? [{ paragraph: 2, action: 'exit', character: people[(t + 2) % people.length] ?? 'Ana' }]
					: [];
		list.forEach((cue, ord) => cues.push({ messageId: id, paragraph: cue.paragraph, ord, cue }));
	}
	return { messages, cues, timeline: new StageTimeline(messages, cues) };
}

const log = buildLog();
const images = { characters: [], scenes: [] };

function backlogPage(url: URL): LogPageDto {
	const limit = Number(url.searchParams.get('limit') ?? '100');
	const before = url.searchParams.get('before');
	const after = url.searchParams.get('after');
	let rows: MessageDto[];
	if (after !== null) rows = log.messages.filter((m) => m.id > Number(after)).slice(0, limit);
	else rows = log.messages.filter((m) => before === null || m.id < Number(before)).slice(-limit);
	const first = rows[0];
	const ids = new Set(rows.map((m) => m.id));
	return {
		messages: rows,
		cues: log.cues.filter((c) => ids.has(c.messageId)),
		stageBefore: first
			? log.timeline.before(first.id)
			: { background: null, slots: { left: null, center: null, right: null }, speaker: null },
		...(first && rows.length === limit && after === null ? { nextBefore: first.id } : {}),
		images
	};
}

const DOC_BODY = '# Harbour\nFog and *gulls*.\n\n<script>window.__xss = 1</script>\n\n<img src=x onerror="window.__xss = 2">';

interface Served {
	puts: unknown[];
}

async function serve(page: Page): Promise<Served> {
	const served: Served = { puts: [] };
	const json = (route: Route, body: unknown, status = 200) =>
		route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
	await page.route(`${ORIGIN}/**`, async (route) => {
		const url = new URL(route.request().url());
		const p = url.pathname;
		if (p === '/api/v1/sessions/s1/backlog') return json(route, backlogPage(url));
		if (p === '/api/v1/sessions/s1/images') return json(route, images);
		if (p === '/api/v1/sessions/s1/state')
			return json(route, { state: { location: 'Harbour', hp: 7, inventory: ['rope', 'lantern'], flags: { metBram: true } }, version: 3 });
		if (p === '/api/v1/sessions/s1/journal/recent')
			return json(route, { entries: [{ id: 1, body: 'Day 1: arrived at the harbour.', createdAt: at }] });
		if (p === '/api/v1/sessions/s1/documents') return json(route, { documents: [{ id: 4, title: 'World', createdAt: at, updatedAt: at }] });
		if (p === '/api/v1/sessions/s1/documents/4') {
			if (route.request().method() === 'PUT') {
				const body: unknown = route.request().postDataJSON();
				served.puts.push(body);
				return json(route, {
					id: 4,
					title: 'World',
					createdAt: at,
					updatedAt: at,
					body: typeof body === 'object' && body !== null && 'body' in body ? String(body.body) : ''
				});
			}
			return json(route, { id: 4, title: 'World', createdAt: at, updatedAt: at, body: DOC_BODY });
		}
		if (p === '/api/v1/sessions/s1')
			return json(route, {
				id: 's1',
				title: 'Harbour',
				language: 'en',
				createdAt: at,
				updatedAt: at,
				provider: 'openai',
				model: 'gpt-test',
				lastEventId: 0,
				llm: { configured: true, provider: 'openai', model: 'gpt-test' }
			});
		const file = p === '/' ? 'index.html' : p.slice(1);
		const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'text/html';
		try {
			await route.fulfill({ status: 200, contentType: type, body: await readFile(path.join(HARNESS_DIST, file)) });
		} catch {
			return route.fulfill({ status: 404, body: 'not found' });
		}
	});
	// Long tasks and the moment the first backlog row appears, from navigation start.
	await page.addInitScript(() => {
		const longTasks: number[] = [];
		Reflect.set(window, '__longTasks', longTasks);
		new PerformanceObserver((list) => {
			for (const e of list.getEntries()) longTasks.push(e.duration);
		}).observe({ type: 'longtask', buffered: true });
		const seen = new MutationObserver(() => {
			if (document.querySelector('[role="option"]')) {
				Reflect.set(window, '__firstRowsAt', performance.now());
				seen.disconnect();
			}
		});
		document.addEventListener('DOMContentLoaded', () => seen.observe(document.body, { childList: true, subtree: true }));
	});
	return served;
}

const numbers = (page: Page, name: string) =>
	page.evaluate((n) => {
		const value: unknown = Reflect.get(window, n);
		return Array.isArray(value) ? value.filter((x): x is number => typeof x === 'number') : [];
	}, name);

test('a 5,000-message backlog opens, pages back to the start and replays the stage, with a bounded DOM', async ({ page }, info) => {
	await serve(page);
	await page.goto('/');
	const list = page.getByRole('listbox', { name: 'Play log: choose a line to see it on the stage' });
	await expect(list.getByRole('option').first()).toBeVisible();
	const { openMs, fromNavigationMs } = await page.evaluate(() => {
		const rows = Number(Reflect.get(window, '__firstRowsAt'));
		return { openMs: rows - Number(Reflect.get(window, '__mountAt')), fromNavigationMs: rows };
	});
	const openTasks = await numbers(page, '__longTasks');
	// When the first page's response ended, relative to mount: the rest of openMs is the component's own work.
	const responseEndMs = await page.evaluate(() => {
		const entry = performance.getEntriesByType('resource').find((e) => e.name.includes('/backlog'));
		return entry instanceof PerformanceResourceTiming ? entry.responseEnd - Number(Reflect.get(window, '__mountAt')) : -1;
	});
	// The latest line is shown and active.
	await expect(list.getByRole('option').last()).toContainText('A gull cries.');

	// Scroll to the very start with the mouse wheel, as a reader would.
	await page.evaluate(() => Reflect.set(window, '__longTasks', []));
	await page.evaluate(() => {
		const longTasks: number[] = [];
		Reflect.set(window, '__scrollTasks', longTasks);
		new PerformanceObserver((l) => {
			for (const e of l.getEntries()) longTasks.push(e.duration);
		}).observe({ type: 'longtask' });
	});
	await list.hover();
	const started = Date.now();
	let wheels = 0;
	while (!(await page.getByText('The beginning of the story').isVisible()) && wheels < 3_000) {
		await page.mouse.wheel(0, -2_500);
		await page.waitForTimeout(16);
		wheels++;
	}
	const upMs = Date.now() - started;
	await expect(page.getByText('The beginning of the story')).toBeVisible();
	await expect(list.getByRole('option').first()).toContainText('I look around the Harbour (0).');
	// Windowed: a few dozen rows exist, not fifteen thousand.
	const domRows = await list.getByRole('option').count();
	expect(domRows).toBeLessThan(120);
	await page.screenshot({ path: info.outputPath('backlog-start.png') });

	// And back down to the end, fast.
	for (let i = 0; i < 400; i++) {
		await page.mouse.wheel(0, 4_000);
		await page.waitForTimeout(8);
	}
	const scrollTasks = await numbers(page, '__scrollTasks');

	// Keyboard: Home, a few lines down, Enter: the stage is the one that line had.
	await list.focus();
	await page.keyboard.press('Home');
	for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowDown');
	await page.keyboard.press('Enter');
	const picked = v.parse(Selection, await page.evaluate((): unknown => JSON.parse(JSON.stringify(Reflect.get(window, '__selection')))));
	expect(picked).toBeTruthy();
	expect(picked.stage).toEqual(log.timeline.at(picked.messageId, picked.paragraph));
	const activeId = await list.getAttribute('aria-activedescendant');
	expect(activeId).toBeTruthy();
	await expect(page.locator(`#${activeId}`)).toHaveAttribute('aria-selected', 'true');

	// A click picks a line too; a mid-log one whose stage has people on it.
	const option = list.getByRole('option').filter({ hasText: 'Who goes there?' }).first();
	await option.click();
	const clicked = v.parse(Selection, await page.evaluate((): unknown => JSON.parse(JSON.stringify(Reflect.get(window, '__selection')))));
	expect(clicked.stage).toEqual(log.timeline.at(clicked.messageId, clicked.paragraph));
	expect(clicked.stage.speaker).not.toBeNull();

	const figures = {
		messages: MESSAGES,
		openMs: Math.round(openMs),
		firstRowsFromNavigationMs: Math.round(fromNavigationMs),
		firstPageResponseAfterMountMs: Math.round(responseEndMs),
		longTasksWhileOpening: openTasks.map(Math.round),
		wheelStepsToStart: wheels,
		secondsToScrollToStart: upMs / 1000,
		longTasksWhileScrolling: scrollTasks.map(Math.round),
		longTasksOver50ms: scrollTasks.filter((d) => d > LONG_TASK_MS).length,
		maxLongTaskMs: Math.round(Math.max(0, ...scrollTasks)),
		domRows
	};
	console.log(`backlog figures: ${JSON.stringify(figures)}`);
	await mkdir(path.resolve('test-results/panels'), { recursive: true });
	await writeFile(path.resolve('test-results/panels/backlog-perf.json'), JSON.stringify(figures, null, 2));
});

test('record panels: state readable, a hostile document shown as text and saved through PUT', async ({ page }, info) => {
	const served = await serve(page);
	await page.goto('/');
	await expect(page.getByRole('region', { name: 'State' })).toContainText('lantern');
	await expect(page.getByRole('region', { name: 'Journal' })).toContainText('Day 1: arrived at the harbour.');
	const docs = page.getByRole('region', { name: 'Documents' });
	await docs.getByRole('link', { name: 'World' }).click();
	await expect(docs.getByRole('heading', { name: 'World' })).toBeFocused();
	await expect(docs).toContainText('<script>window.__xss = 1</script>');
	await expect(docs.locator('em')).toHaveText('gulls');
	expect(await page.evaluate((): unknown => Reflect.get(window, '__xss'))).toBeUndefined();
	await docs.getByRole('link', { name: 'Edit' }).click();
	await expect(docs.getByLabel('Title')).toBeFocused();
	await docs.getByLabel(/^Text/).fill('# Harbour\nA brass astrolabe hides under the third step.');
	await docs.getByRole('button', { name: 'Save' }).click();
	await expect(docs.getByRole('status')).toHaveText('Saved. The GM can look it up from the next turn.');
	expect(served.puts).toEqual([{ body: '# Harbour\nA brass astrolabe hides under the third step.' }]);
	await expect(page.getByRole('region', { name: 'Settings' })).toContainText('Now: openai / gpt-test');
	await page.screenshot({ path: info.outputPath('panels-settings.png') });
});

test('both languages and a phone-sized viewport', async ({ page }, info) => {
	await page.setViewportSize({ width: 375, height: 740 });
	await serve(page);
	await page.goto('/?lang=ja');
	await expect(
		page.getByRole('listbox', { name: 'プレイログ：行を選ぶとその場面を舞台に表示します' }).getByRole('option').first()
	).toBeVisible();
	await expect(page.getByRole('region', { name: '資料' })).toBeVisible();
	const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
	expect(overflow).toBeLessThanOrEqual(0);
	await page.screenshot({ path: info.outputPath('phone-ja.png'), fullPage: true });
});
