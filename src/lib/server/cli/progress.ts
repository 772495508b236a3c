/** A one-line progress bar on a terminal; nothing at all when stderr is not a TTY (logs stay clean). */
export interface Progress {
	update(done: number, total: number): void;
	end(): void;
}

const BAR_WIDTH = 30;

export function progressBar(stream: { write(chunk: string): unknown; isTTY?: boolean }, label: string): Progress {
	if (!stream.isTTY) return { update: () => undefined, end: () => undefined };
	let drawn = false;
	return {
		update(done, total) {
			const ratio = total === 0 ? 1 : Math.min(1, done / total);
			const filled = Math.round(ratio * BAR_WIDTH);
			stream.write(
				`\r${label} [${'#'.repeat(filled)}${' '.repeat(BAR_WIDTH - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}% ${done}/${total}`
			);
			drawn = true;
		},
		end() {
			if (drawn) stream.write('\n');
		}
	};
}
