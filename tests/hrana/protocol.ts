/**
 * Hrana over HTTP, JSON encoding: the request and response shapes of the public Hrana 3 specification
 * (tursodatabase/libsql, docs/HRANA_3_SPEC.md), which for HTTP is a superset of Hrana 2. Requests are
 * validated with valibot where they enter the server; unknown fields are ignored, as the spec requires.
 */
import * as v from 'valibot';

export const ValueSchema = v.variant('type', [
	v.object({ type: v.literal('null') }),
	v.object({ type: v.literal('integer'), value: v.pipe(v.string(), v.regex(/^-?\d+$/, 'integer value must be a decimal string')) }),
	v.object({ type: v.literal('float'), value: v.number() }),
	v.object({ type: v.literal('text'), value: v.string() }),
	v.object({ type: v.literal('blob'), base64: v.string() })
]);
export type Value = v.InferOutput<typeof ValueSchema>;

const SqlId = v.pipe(v.number(), v.integer());

export const StmtSchema = v.object({
	sql: v.nullish(v.string()),
	sql_id: v.nullish(SqlId),
	args: v.optional(v.array(ValueSchema)),
	named_args: v.optional(v.array(v.object({ name: v.string(), value: ValueSchema }))),
	want_rows: v.optional(v.boolean())
});
export type Stmt = v.InferOutput<typeof StmtSchema>;

export type BatchCond =
	| { type: 'ok'; step: number }
	| { type: 'error'; step: number }
	| { type: 'not'; cond: BatchCond }
	| { type: 'and'; conds: BatchCond[] }
	| { type: 'or'; conds: BatchCond[] }
	| { type: 'is_autocommit' };

const Step = v.pipe(v.number(), v.integer(), v.minValue(0));
export const BatchCondSchema: v.GenericSchema<BatchCond> = v.variant('type', [
	v.object({ type: v.literal('ok'), step: Step }),
	v.object({ type: v.literal('error'), step: Step }),
	v.object({ type: v.literal('not'), cond: v.lazy(() => BatchCondSchema) }),
	v.object({ type: v.literal('and'), conds: v.array(v.lazy(() => BatchCondSchema)) }),
	v.object({ type: v.literal('or'), conds: v.array(v.lazy(() => BatchCondSchema)) }),
	v.object({ type: v.literal('is_autocommit') })
]);

export const BatchSchema = v.object({
	steps: v.array(v.object({ condition: v.nullish(BatchCondSchema), stmt: StmtSchema }))
});
export type Batch = v.InferOutput<typeof BatchSchema>;

const SqlRef = { sql: v.nullish(v.string()), sql_id: v.nullish(SqlId) };

export const StreamRequestSchema = v.variant('type', [
	v.object({ type: v.literal('close') }),
	v.object({ type: v.literal('execute'), stmt: StmtSchema }),
	v.object({ type: v.literal('batch'), batch: BatchSchema }),
	v.object({ type: v.literal('sequence'), ...SqlRef }),
	v.object({ type: v.literal('describe'), ...SqlRef }),
	v.object({ type: v.literal('store_sql'), sql_id: SqlId, sql: v.string() }),
	v.object({ type: v.literal('close_sql'), sql_id: SqlId }),
	v.object({ type: v.literal('get_autocommit') })
]);
export type StreamRequest = v.InferOutput<typeof StreamRequestSchema>;

export const PipelineReqBodySchema = v.object({
	baton: v.nullish(v.string()),
	requests: v.array(StreamRequestSchema)
});

export const CursorReqBodySchema = v.object({
	baton: v.nullish(v.string()),
	batch: BatchSchema
});

export interface Col {
	name: string | null;
	decltype: string | null;
}

export interface StmtResult {
	cols: Col[];
	rows: Value[][];
	affected_row_count: number;
	last_insert_rowid: string | null;
	/** Not in the spec's JSON for v2; harmless extra field that clients ignore. */
	rows_read?: number;
}

export interface HranaError {
	message: string;
	code?: string | null;
}

export interface BatchResult {
	step_results: Array<StmtResult | null>;
	step_errors: Array<HranaError | null>;
}

export type StreamResponse =
	| { type: 'close' }
	| { type: 'execute'; result: StmtResult }
	| { type: 'batch'; result: BatchResult }
	| { type: 'sequence' }
	| { type: 'describe'; result: { params: Array<{ name: string | null }>; cols: Col[]; is_explain: boolean; is_readonly: boolean } }
	| { type: 'store_sql' }
	| { type: 'close_sql' }
	| { type: 'get_autocommit'; is_autocommit: boolean };

export type StreamResult = { type: 'ok'; response: StreamResponse } | { type: 'error'; error: HranaError };

export type CursorEntry =
	| { type: 'step_begin'; step: number; cols: Col[] }
	| { type: 'step_end'; affected_row_count: number; last_insert_rowid: string | null }
	| { type: 'step_error'; step: number; error: HranaError }
	| { type: 'row'; row: Value[] }
	| { type: 'error'; error: HranaError };
