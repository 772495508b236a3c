/**
 * A horizontal swipe of a finger (or a pen) on an element, as a Svelte action: `use:swipe={{ onswipe }}`
 * calls `onswipe(-1)` for a swipe to the right (back) and `onswipe(1)` for one to the left (on). A
 * mouse is left alone: its drags select text, its clicks read on. Pointer events, so it works on any
 * touch screen without touch-event handling of its own.
 */
import type { ActionReturn } from 'svelte/action';

/** How far a finger must travel sideways, in CSS pixels, for a swipe (a tap wobbles less than this). */
const MIN_SWIPE_PX = 60;

export interface SwipeOptions {
	onswipe: (direction: -1 | 1) => void;
}

export function swipe(node: HTMLElement, options: SwipeOptions): ActionReturn<SwipeOptions> {
	let current = options;
	let start: { id: number; x: number; y: number } | null = null;
	const down = (event: PointerEvent) => {
		if (event.pointerType === 'mouse' || !event.isPrimary) return;
		start = { id: event.pointerId, x: event.clientX, y: event.clientY };
	};
	const up = (event: PointerEvent) => {
		if (!start || event.pointerId !== start.id) return;
		const dx = event.clientX - start.x;
		const dy = event.clientY - start.y;
		start = null;
		// Mostly sideways: a scroll of the log or the choices is not a swipe.
		if (Math.abs(dx) >= MIN_SWIPE_PX && Math.abs(dy) < Math.abs(dx) / 2) current.onswipe(dx < 0 ? 1 : -1);
	};
	const cancel = () => (start = null);
	node.addEventListener('pointerdown', down);
	node.addEventListener('pointerup', up);
	node.addEventListener('pointercancel', cancel);
	return {
		update(next) {
			current = next;
		},
		destroy() {
			node.removeEventListener('pointerdown', down);
			node.removeEventListener('pointerup', up);
			node.removeEventListener('pointercancel', cancel);
		}
	};
}
