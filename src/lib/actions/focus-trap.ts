/**
 * Keeps Tab and Shift+Tab inside a modal dialog: past its last control the keyboard goes round to the
 * first, and back from the first (or from the dialog's heading) to the last. Built on `shortcuts`, as
 * immich's focus trap is; where the keyboard was before and goes after is the dialog owner's business.
 */
import type { ActionReturn } from 'svelte/action';
import { shortcuts } from './shortcuts';

const FOCUSABLE = [
	'a[href]',
	'button:not([disabled])',
	'input:not([disabled]):not([type="hidden"])',
	'select:not([disabled])',
	'textarea:not([disabled])',
	'summary',
	'[tabindex]:not([tabindex="-1"])'
].join(', ');

/** Controls out of view (a closed part, a hidden panel) take no focus: the trap goes round the ones shown. */
function shown(element: HTMLElement): boolean {
	return !('checkVisibility' in element) || element.checkVisibility();
}

function cycle(node: HTMLElement, event: KeyboardEvent, backwards: boolean): void {
	const controls = [...node.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(shown);
	const first = controls[0];
	const last = controls.at(-1);
	if (!first || !last) {
		event.preventDefault();
		return;
	}
	const at = node.ownerDocument.activeElement;
	if (!at) return;
	const position = at.compareDocumentPosition(backwards ? first : last);
	const atEdge = backwards
		? at === first || (position & Node.DOCUMENT_POSITION_FOLLOWING) !== 0
		: at === last || (position & Node.DOCUMENT_POSITION_PRECEDING) !== 0;
	if (!atEdge) return;
	event.preventDefault();
	(backwards ? last : first).focus();
}

export function focusTrap(node: HTMLElement): ActionReturn {
	const { destroy } = shortcuts(node, [
		{ shortcut: { key: 'Tab', shift: false }, ignoreInputFields: false, preventDefault: false, onShortcut: (e) => cycle(node, e, false) },
		{ shortcut: { key: 'Tab', shift: true }, ignoreInputFields: false, preventDefault: false, onShortcut: (e) => cycle(node, e, true) }
	]);
	return { destroy };
}
