/**
 * Play together, free turn order: the lines sent while the GM writes, waiting for the next turn to answer them
 * (in order, together). Everyone sees them as queued; their sender may take one back until a turn takes it.
 */
import type { QueuedLine } from './types';

export class LineQueue {
	lines = $state.raw<QueuedLine[]>([]);

	constructor(initial: readonly QueuedLine[] = []) {
		this.lines = [...initial];
	}

	add(line: QueuedLine): void {
		if (!this.lines.some((l) => l.id === line.id)) this.lines = [...this.lines, line];
	}

	/** Takes the line out (a turn started on it, it was merged into one, or it was cancelled); undefined if it was not queued. */
	take(id: string): QueuedLine | undefined {
		const line = this.lines.find((l) => l.id === id);
		if (line) this.lines = this.lines.filter((l) => l.id !== id);
		return line;
	}
}
