/**
 * Keyboard shortcuts as a declarative table in a Svelte action, in the shape of immich's
 * `use:shortcuts`: `use:shortcuts={[{ shortcut: { key, ctrl }, onShortcut, ignoreInputFields }]}`.
 * The first entry that matches a keydown handles it; the others are not asked. Put on
 * `<svelte:window>` for keys that work wherever the focus is.
 */
import type { ActionReturn } from 'svelte/action';

/** Matches every key (with the modifiers given): a catch-all at the end or behind a `when`. */
export const ANY_KEY = '*';

export interface Shortcut {
	/** `KeyboardEvent.key`, any case (`a` is also Shift+A), or `ANY_KEY`. */
	key: string;
	ctrl?: boolean;
	alt?: boolean;
	meta?: boolean;
	/** Left out: either way. Printable keys such as `?` need Shift on some layouts and not on others. */
	shift?: boolean;
}

export interface ShortcutOptions {
	shortcut: Shortcut;
	onShortcut: (event: KeyboardEvent) => void;
	/** The entry applies only while this holds (the screen's state, where the key was pressed). */
	when?: (event: KeyboardEvent) => boolean;
	/** Keys pressed in a form field or a contenteditable are the field's (default); false for Esc and the like. */
	ignoreInputFields?: boolean;
	/** The key's own effect (scrolling, typing a letter) is prevented when the entry handles it (default). */
	preventDefault?: boolean;
	/** A key held down: called on its keyup, or when the window loses the keyboard (no keyup comes then). */
	onRelease?: () => void;
}

type KeyTarget = HTMLElement | Document | Window;

/** Where the keyboard types into: the keys are the field's, not the page's. */
export function isInputField(target: EventTarget | null): boolean {
	return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

export function matchesShortcut(event: KeyboardEvent, shortcut: Shortcut): boolean {
	return (
		(shortcut.key === ANY_KEY || shortcut.key.toLowerCase() === event.key.toLowerCase()) &&
		Boolean(shortcut.ctrl) === event.ctrlKey &&
		Boolean(shortcut.alt) === event.altKey &&
		Boolean(shortcut.meta) === event.metaKey &&
		(shortcut.shift === undefined || shortcut.shift === event.shiftKey)
	);
}

/** The window a key target belongs to (by shape: a test's global window is no `instanceof Window`). */
function windowOf(node: KeyTarget): Window | null {
	if ('defaultView' in node) return node.defaultView;
	if ('ownerDocument' in node) return node.ownerDocument.defaultView;
	return node;
}

export function shortcuts(node: KeyTarget, options: readonly ShortcutOptions[]): ActionReturn<readonly ShortcutOptions[]> {
	let table = options;
	/** Keys held down whose entry wants to hear of their release, by `KeyboardEvent.key`. */
	const held = new Map<string, () => void>();

	function onKeydown(event: Event) {
		if (!(event instanceof KeyboardEvent)) return;
		// An input method composing a word owns the keyboard; an element that handled the key already said so.
		if (event.defaultPrevented || event.isComposing) return;
		const inField = isInputField(event.target);
		const entry = table.find(
			(o) => !(inField && (o.ignoreInputFields ?? true)) && matchesShortcut(event, o.shortcut) && (o.when?.(event) ?? true)
		);
		if (!entry) return;
		if (entry.preventDefault ?? true) event.preventDefault();
		if (entry.onRelease) held.set(event.key, entry.onRelease);
		entry.onShortcut(event);
	}

	function onKeyup(event: Event) {
		if (!(event instanceof KeyboardEvent)) return;
		const release = held.get(event.key);
		if (!release) return;
		held.delete(event.key);
		release();
	}

	function releaseAll() {
		const releases = [...held.values()];
		held.clear();
		for (const release of releases) release();
	}

	const target: EventTarget = node;
	const win = windowOf(node);
	target.addEventListener('keydown', onKeydown);
	target.addEventListener('keyup', onKeyup);
	win?.addEventListener('blur', releaseAll);

	return {
		update(next) {
			table = next;
		},
		destroy() {
			target.removeEventListener('keydown', onKeydown);
			target.removeEventListener('keyup', onKeyup);
			win?.removeEventListener('blur', releaseAll);
			releaseAll();
		}
	};
}
