/**
 * What the GM tools share: field builders, and the mapping of the records' and stage's own errors to
 * tool errors the model can read and act on. A field is described only where its name, type and the
 * tool's description do not already say what to send: every word of it goes out with every call.
 *
 * Schemas stay plain: no transforms or checks in what the JSON Schema is rendered from (the converter
 * throws on them). Where a tool's arguments depend on an `action`, the schema is `v.pipe(flat, exact)`:
 * in `input` mode the converter stops at the second schema of a pipe, so the provider sees one flat
 * object (every vendor accepts it; Anthropic refuses a top-level oneOf), while validation runs the
 * exact per-action `v.variant` after it and the handler gets the variant's type.
 */
import * as v from 'valibot';
import { RecordError } from '../../records';
import { presentNow, StageError } from '../../stage';
import type { ToolContext } from '../context';
import { ToolError } from '../run';

/** Who is on the stage now, this turn's cues played: they witness what is written down now (issue 27). */
export function onStage(ctx: Pick<ToolContext, 'read' | 'cues'>): Promise<string[]> {
	return ctx.read((exec) => presentNow(exec, ctx.cues));
}

/** A string of 1..max characters. */
export function text(max: number, description?: string) {
	const bounded = v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(max));
	return description === undefined ? bounded : v.pipe(bounded, v.description(description));
}

/** An integer in [min, max]. */
export function int(min: number, max: number) {
	return v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
}

/** A record id: a positive integer. */
export function recordId(description?: string) {
	const id = v.pipe(v.number(), v.integer(), v.minValue(1));
	return description === undefined ? id : v.pipe(id, v.description(description));
}

/** Runs a records or stage call, turning their errors (written for the model) into tool errors. */
export async function recorded<T>(work: () => Promise<T>): Promise<T> {
	try {
		return await work();
	} catch (err) {
		if (err instanceof RecordError || err instanceof StageError) throw new ToolError(err.message);
		throw err;
	}
}

/** Quotes a name for a message the model reads. */
export function quote(name: string): string {
	return JSON.stringify(name);
}
