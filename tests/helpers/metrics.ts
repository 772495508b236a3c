/** Reading what the server says about itself: its Prometheus text and its structured log lines. */
import * as v from 'valibot';

export type Samples = Map<string, number>;

/**
 * Parses the Prometheus text exposition: `name{a="b",…} value` lines, keyed as `name{a=b,…}` with the
 * labels sorted by name (`name{}` without labels). Throws on a line that is neither a sample nor a comment.
 */
export function parseExposition(text: string): Samples {
	const samples: Samples = new Map();
	for (const line of text.split('\n')) {
		if (line === '' || line.startsWith('#')) continue;
		const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
		if (!m) throw new Error(`not an exposition line: ${line}`);
		const [, name = '', labelText = '', value = ''] = m;
		const labels = [...labelText.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k, val]) => `${k}=${val}`).sort();
		samples.set(`${name}{${labels.join(',')}}`, Number(value));
	}
	return samples;
}

const LogLine = v.looseObject({ time: v.string(), level: v.string(), msg: v.string() });
export type LogLine = v.InferOutput<typeof LogLine>;

/** The JSON log lines in a server's output (other lines, such as "Listening on …", are skipped). */
export function jsonLogLines(output: string): LogLine[] {
	const lines: LogLine[] = [];
	for (const text of output.split('\n')) {
		if (!text.startsWith('{')) continue;
		const parsed = v.safeParse(LogLine, JSON.parse(text));
		if (parsed.success) lines.push(parsed.output);
	}
	return lines;
}
