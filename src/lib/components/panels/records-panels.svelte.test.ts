import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { translator } from '$lib/i18n';
import JournalPanel from './JournalPanel.svelte';
import StatePanel from './StatePanel.svelte';
import { panelClient } from './api';

/** The API as the drawers call it: what the records are now, and which paths were asked for. */
function api(now: { journal: string[]; location: string }) {
	const asked: string[] = [];
	const fetcher = vi.fn((input: RequestInfo | URL) => {
		const url = input instanceof Request ? input.url : input;
		const path = new URL(url, 'http://kantera.test').pathname;
		asked.push(path);
		const body = path.includes('/journal')
			? { entries: now.journal.map((text, i) => ({ id: i + 1, body: text, createdAt: '2026-12-01T10:00:00.000Z' })) }
			: { state: { location: now.location }, version: 2 };
		return Promise.resolve(new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }));
	});
	return { client: panelClient('s1', fetcher), asked };
}

const t = translator('en');
/** The page's copy, taken at page load: before the turn that wrote the entry and moved the party. */
const COPY = { journal: { entries: [] }, state: { state: { location: 'The tavern' }, version: 1 } };

afterEach(() => {
	document.body.replaceChildren();
});

describe('the record drawers', () => {
	it('show the page’s copy, reading nothing, when first opened before any commit', async () => {
		const { client, asked } = api({ journal: ['Met Bram at the gate.'], location: 'The rooftops' });
		render(JournalPanel, { props: { client, t, refreshKey: 0, storyLanguage: 'en', initial: COPY.journal } });
		render(StatePanel, { props: { client, t, refreshKey: 0, storyLanguage: 'en', initial: COPY.state } });
		expect(await screen.findByText('The journal is empty.')).toBeTruthy();
		expect(screen.getByText('The tavern')).toBeTruthy();
		expect(asked).toEqual([]);
	});

	it('read the records afresh when first opened after a commit: the page’s copy is stale then', async () => {
		const { client, asked } = api({ journal: ['Met Bram at the gate.'], location: 'The rooftops' });
		render(JournalPanel, { props: { client, t, refreshKey: 1, storyLanguage: 'en', initial: COPY.journal } });
		render(StatePanel, { props: { client, t, refreshKey: 1, storyLanguage: 'en', initial: COPY.state } });
		expect(await screen.findByText('Met Bram at the gate.')).toBeTruthy();
		expect(await screen.findByText('The rooftops')).toBeTruthy();
		expect(screen.queryByText('The tavern')).toBeNull();
		expect(asked.sort()).toEqual(['/api/v1/sessions/s1/journal/recent', '/api/v1/sessions/s1/state']);
	});
});
