/** Reads a server-sent event stream frame by frame, the way EventSource parses it (minus reconnecting). */

export interface SseFrame {
	id?: string;
	event?: string;
	data?: string;
	retry?: string;
	/** Comment lines (`: keep-alive`), without the colon. */
	comments: string[];
}

export interface SseReader {
	/** The next frame; undefined when the stream has ended. */
	next(): Promise<SseFrame | undefined>;
	/** Frames up to and including the first that matches; throws if the stream ends first. */
	until(match: (f: SseFrame) => boolean, max?: number): Promise<SseFrame[]>;
	/** Walks away, as a client that disconnects. */
	close(): Promise<void>;
}

export function sseReader(res: Response): SseReader {
	if (!res.body) throw new Error('the response has no body');
	const reader = res.body.getReader();
	const decoder = new TextDecoder();
	let buffer = '';
	let done = false;

	const parse = (block: string): SseFrame => {
		const frame: SseFrame = { comments: [] };
		for (const line of block.split('\n')) {
			if (line.startsWith(':')) {
				frame.comments.push(line.slice(1).trim());
				continue;
			}
			const colon = line.indexOf(':');
			const field = colon === -1 ? line : line.slice(0, colon);
			const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
			if (field === 'id' || field === 'event' || field === 'retry') frame[field] = value;
			else if (field === 'data') frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
		}
		return frame;
	};

	const next = async (): Promise<SseFrame | undefined> => {
		for (;;) {
			const end = buffer.indexOf('\n\n');
			if (end !== -1) {
				const block = buffer.slice(0, end);
				buffer = buffer.slice(end + 2);
				return parse(block);
			}
			if (done) return undefined;
			const chunk = await reader.read();
			if (chunk.done) done = true;
			else buffer += decoder.decode(chunk.value, { stream: true });
		}
	};

	return {
		next,
		async until(match, max = 10_000) {
			const frames: SseFrame[] = [];
			for (let i = 0; i < max; i++) {
				const f = await next();
				if (!f) throw new Error(`the stream ended before the expected frame; got ${JSON.stringify(frames.slice(-3))}`);
				frames.push(f);
				if (match(f)) return frames;
			}
			throw new Error(`no matching frame in ${max} frames`);
		},
		close: () => reader.cancel()
	};
}

/** The event frames (those with an id and data) of a list of frames. */
export function eventFrames(frames: SseFrame[]): { id: number; event: string; data: unknown }[] {
	return frames
		.filter((f) => f.data !== undefined && f.id !== undefined)
		.map((f) => {
			const data: unknown = JSON.parse(f.data ?? '');
			return { id: Number(f.id), event: f.event ?? 'message', data };
		});
}
