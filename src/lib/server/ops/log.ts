/**
 * Structured log lines: one per HTTP request and one per turn, on stdout, as JSON (one object a line,
 * for log shippers) or as `key=value` text for a person at a terminal (KANTERA_LOG_FORMAT). Both
 * kinds are info lines: KANTERA_LOG_LEVEL=warn leaves them out (warnings and errors are plain stderr).
 *
 * Fields are scalars chosen by the caller from ids, counts, durations and names: never a prompt, a
 * player's line, a reply, a token, a cookie or a raw path (which may hold a secret such as a sign-in
 * state). The type keeps free text out by construction only as far as callers keep to ids; the tests
 * check a turn's line for the player's text.
 */
import type { LogFormat, LogLevel } from '../config';

type LogValue = string | number | boolean | null | undefined;
export type LogFields = Record<string, LogValue>;

/** The kinds of line; `msg` in JSON, the first word in text. */
export type LogKind = 'request' | 'turn';

export interface LogSettings {
	format: LogFormat;
	/** `warn`: no line is written (every kind is an info line). */
	level: LogLevel;
	/** Where lines go; stdout by default. Tests collect them. */
	sink: (line: string) => void;
}

const settings: LogSettings = {
	format: 'json',
	level: 'info',
	sink: (line) => console.log(line)
};

/** Sets the format and level (from the configuration, when the app is built) and, for tests, the sink. */
export function configureLog(change: Partial<LogSettings>): void {
	if (change.format) settings.format = change.format;
	if (change.level) settings.level = change.level;
	if (change.sink) settings.sink = change.sink;
}

/** The current settings, so a test can put them back. */
export function logSettings(): LogSettings {
	return { ...settings };
}

const BARE = /^[\w.:/@+-]+$/;

function textValue(v: Exclude<LogValue, undefined>): string {
	if (typeof v === 'string') return BARE.test(v) ? v : JSON.stringify(v);
	return String(v);
}

/** Formats one line; fields left undefined are left out. */
function formatLine(format: LogFormat, kind: LogKind, fields: LogFields, at = new Date()): string {
	const present = Object.entries(fields).filter((e): e is [string, Exclude<LogValue, undefined>] => e[1] !== undefined);
	if (format === 'json') return JSON.stringify({ time: at.toISOString(), level: 'info', msg: kind, ...Object.fromEntries(present) });
	return [at.toISOString(), kind, ...present.map(([k, v]) => `${k}=${textValue(v)}`)].join(' ');
}

export function logLine(kind: LogKind, fields: LogFields): void {
	if (settings.level !== 'info') return;
	settings.sink(formatLine(settings.format, kind, fields));
}
