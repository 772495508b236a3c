/**
 * A GM turn for tool tests: a real session database, the real turn staging behind the ToolContext,
 * and runToolCall over the real tool map — the same path the turn engine takes.
 */
import { afterAll, beforeAll } from 'vitest';
import { testEnv, type TestEnv } from '../../../helpers/env';
import type { SessionDb } from '../../../../src/lib/server/db';
import { OfflineEmbedder } from '../../../../src/lib/server/search';
import { Staging } from '../../../../src/lib/server/turn/staging';
import { gmToolMap, runToolCall, type Rng, type ToolContext, type ToolResult } from '../../../../src/lib/server/tools';

export const embedder = new OfflineEmbedder(384);

export interface Turn {
	readonly s: SessionDb;
	readonly staging: Staging;
	readonly ctx: ToolContext;
	/** Calls a tool the way the model does: arguments as JSON text (or raw text, to send garbage). */
	call(name: string, args?: unknown): Promise<ToolResult>;
	/** Calls a tool and fails the test unless it succeeded; returns what the model reads. */
	ok(name: string, args?: unknown): Promise<string>;
	/** Commits the staged writes, as the turn does when it ends well. */
	commit(): Promise<void>;
	/** A new turn on the same session (the previous one committed or dropped). */
	next(): Turn;
}

export function turnOn(s: SessionDb, rng?: Rng): Turn {
	const staging = new Staging(s);
	const ctx: ToolContext = {
		read: (fn) => staging.read(fn),
		write: (fn) => staging.write(fn),
		embedder,
		language: 'en',
		rng,
		cues: [],
		places: [],
		choices: []
	};
	const tools = gmToolMap();
	let calls = 0;
	const call = (name: string, args: unknown = {}) =>
		runToolCall(tools, { id: `call-${++calls}`, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }, ctx);
	return {
		s,
		staging,
		ctx,
		call,
		async ok(name, args) {
			const r = await call(name, args);
			if (r.isError || !r.ran) throw new Error(`${name} failed: ${r.content}`);
			return r.content;
		},
		commit: () => staging.commit(async () => undefined),
		next: () => turnOn(s, rng)
	};
}

/** One app per test file; each test gets a fresh session database and a turn on it. */
export function useTurns(): (fn: (t: Turn) => Promise<void>, rng?: Rng) => Promise<void> {
	let env: TestEnv | undefined;
	beforeAll(async () => {
		env = await testEnv();
	});
	afterAll(async () => {
		await env?.cleanup();
	});
	return async (fn, rng) => {
		if (!env) throw new Error('test env not ready');
		await env.app.sessions.use(await env.sessionId(), (s) => fn(turnOn(s, rng)));
	};
}

const TABLES = [
	'state',
	'journal',
	'memory_notes',
	'documents',
	'story_entries',
	'sections',
	'embed_queue',
	'npcs',
	'scenes',
	'image_orders',
	'stage_cues'
];

/** Every row of every table a GM tool can write: compare before and after to prove nothing landed. */
export async function dump(s: SessionDb): Promise<Record<string, unknown[]>> {
	const out: Record<string, unknown[]> = {};
	for (const table of TABLES) out[table] = (await s.client.execute(`SELECT * FROM ${table} ORDER BY rowid`)).rows.map((r) => ({ ...r }));
	return out;
}

/** Parses a tool's JSON output. */
export function json(content: string): Record<string, unknown> {
	const value: unknown = JSON.parse(content);
	if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`not a JSON object: ${content}`);
	return Object.fromEntries(Object.entries(value));
}

/** A scripted RNG returning the given faces in order. */
export function faces(...values: number[]): Rng {
	let i = 0;
	return (min, max) => {
		const f = values[i++ % values.length] ?? min;
		if (f < min || f >= max) throw new Error(`face ${f} outside [${min}, ${max})`);
		return f;
	};
}
