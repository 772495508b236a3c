import { afterEach, describe, expect, it } from 'vitest';
import { createRawSnippet, flushSync } from 'svelte';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import Overlay from './Overlay.svelte';
import { ScreenUi, screenContext } from './screen.svelte';
import { playState, view } from '../../../../tests/unit/play/factories';

const CONTENT = createRawSnippet(() => ({
	render: () => '<div><a href="#one">One</a><input aria-label="Name"><button type="button">Last</button></div>'
}));

/** The overlay between two controls of the page, opened from the first one. */
function setUp() {
	const before = document.body.appendChild(document.createElement('button'));
	before.textContent = 'Before';
	const ui = new ScreenUi(playState(view()));
	ui.hydrated = true;
	render(Overlay, {
		props: { name: 'help', title: 'Keys and controls', closeLabel: 'Close', children: CONTENT },
		context: screenContext(ui)
	});
	document.body.appendChild(document.createElement('button')).textContent = 'After';
	before.focus();
	ui.open('help');
	flushSync();
	return { ui, before, user: userEvent.setup() };
}

/** The accessible name of the focused control (its label, or its text). */
const focused = () => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent;

afterEach(() => {
	document.body.replaceChildren();
});

describe('Overlay', () => {
	it('opens as a modal dialog with the keyboard on its heading', () => {
		setUp();
		const dialog = screen.getByRole('dialog', { name: 'Keys and controls' });
		expect(dialog.getAttribute('aria-modal')).toBe('true');
		expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Keys and controls' }));
	});

	it('keeps Tab inside: past the last control it goes round to the first', async () => {
		const { user } = setUp();
		const seen: (string | null | undefined)[] = [];
		for (let i = 0; i < 5; i++) {
			await user.tab();
			seen.push(focused());
		}
		expect(seen).toEqual(['Close', 'One', 'Name', 'Last', 'Close']);
	});

	it('keeps Shift+Tab inside: from the heading or the first control it goes to the last', async () => {
		const { user } = setUp();
		await user.tab({ shift: true });
		expect(focused()).toBe('Last');
		await user.tab({ shift: true });
		await user.tab({ shift: true });
		await user.tab({ shift: true });
		expect(focused()).toBe('Close');
		await user.tab({ shift: true });
		expect(focused()).toBe('Last');
	});

	it('closes on Esc, also from a text field, and the keyboard goes back where it was', async () => {
		const { ui, before, user } = setUp();
		await user.click(screen.getByRole('textbox', { name: 'Name' }));
		await user.keyboard('{Escape}');
		expect(ui.overlay).toBeNull();
		expect(document.activeElement).toBe(before);
	});

	it('closes with its close button, the keyboard back where it was', async () => {
		const { ui, before, user } = setUp();
		await user.click(screen.getByRole('link', { name: 'Close' }));
		expect(ui.overlay).toBeNull();
		expect(document.activeElement).toBe(before);
	});
});
