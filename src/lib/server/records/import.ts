/**
 * One generic write per line of a JSONL import (`kantera records import`):
 * `{"kind", "title"?, "body", "ref"?}` plus a few kind-specific optional fields.
 */
import * as v from 'valibot';
import type { SessionTx } from '../db';
import { RecordError } from './errors';
import { withoutControlCharacters } from '../validation';
import { RECORD_KINDS, type RecordKind } from './kinds';
import { LOG_ROLES } from './log';
import { STORY_TYPES } from './story';
import * as stateRecord from './state';
import * as journal from './journal';
import * as memory from './memory';
import * as documents from './documents';
import * as summaries from './summaries';
import * as story from './story';
import * as log from './log';

// valibot reports a missing required key with the object's message and the key as its path.
const lineMessage = (issue: v.BaseIssue<unknown>): string => {
	const key = v.getDotPath(issue);
	return key ? `"${key}" is missing` : 'an import line must be a JSON object like {"kind": "journal", "body": "…"}';
};

export const ImportLineSchema = v.object(
	{
		kind: v.picklist(
			RECORD_KINDS,
			(issue) => `unknown record kind ${String(JSON.stringify(issue.input))}; use one of ${RECORD_KINDS.join(', ')}`
		),
		/** memory: the note name; document: its title; story: the entry key. Required for those kinds. */
		title: v.optional(v.pipe(v.string(), withoutControlCharacters('title'))),
		/** state: a JSON object as text (a merge patch); story truth: the truth; otherwise the record text. */
		body: v.pipe(v.string('body must be a string'), withoutControlCharacters('body')),
		ref: v.optional(v.pipe(v.string(), withoutControlCharacters('ref'))),
		/** log only; 'gm' when absent. */
		role: v.optional(v.picklist(LOG_ROLES, `role must be one of ${LOG_ROLES.join(', ')}`)),
		/** log only. */
		speaker: v.optional(v.pipe(v.string(), withoutControlCharacters('speaker'))),
		/** document only. */
		gmOnly: v.optional(v.boolean()),
		/** story only; 'truth' when absent. */
		type: v.optional(v.picklist(STORY_TYPES, `type must be one of ${STORY_TYPES.join(', ')}`))
	},
	lineMessage
);
export type ImportLine = v.InferOutput<typeof ImportLineSchema>;

export interface ImportResult {
	readonly kind: RecordKind;
	readonly recordId: number;
}

/** Validates one import line (any parsed JSON) and writes it. Errors are RecordErrors with readable messages. */
export async function importRecord(tx: SessionTx, input: unknown): Promise<ImportResult> {
	const parsed = v.safeParse(ImportLineSchema, input);
	if (!parsed.success) throw new RecordError('invalid_input', `Invalid import line: ${parsed.issues.map((i) => i.message).join('; ')}.`);
	const line = parsed.output;
	switch (line.kind) {
		case 'state': {
			await stateRecord.patch(tx, parseJson(line.body));
			return { kind: 'state', recordId: 1 };
		}
		case 'journal':
			return { kind: 'journal', recordId: (await journal.append(tx, line)).id };
		case 'summary':
			return { kind: 'summary', recordId: (await summaries.append(tx, line)).id };
		case 'log': {
			const row = await log.append(tx, { role: line.role ?? 'gm', speaker: line.speaker, body: line.body, ref: line.ref });
			return { kind: 'log', recordId: row.id };
		}
		case 'memory': {
			const row = await memory.create(tx, { name: requireTitle(line, 'the note name'), body: line.body, ref: line.ref });
			return { kind: 'memory', recordId: row.id };
		}
		case 'document': {
			const row = await documents.create(tx, {
				title: requireTitle(line, 'the document title'),
				body: line.body,
				gmOnly: line.gmOnly,
				ref: line.ref
			});
			return { kind: 'document', recordId: row.id };
		}
		case 'story': {
			const entry = { key: requireTitle(line, 'the entry key'), body: line.body, ref: line.ref };
			const write = { plot: story.setPlot, truth: story.addTruth, quest: story.beginQuest, clue: story.addClue }[line.type ?? 'truth'];
			return { kind: 'story', recordId: (await write(tx, entry)).id };
		}
	}
}

function requireTitle(line: ImportLine, what: string): string {
	if (line.title === undefined || line.title.trim() === '') {
		throw new RecordError('invalid_input', `A ${line.kind} line needs "title" (${what}).`);
	}
	return line.title;
}

function parseJson(text: string): unknown {
	try {
		const value: unknown = JSON.parse(text);
		return value;
	} catch (err) {
		const reason = err instanceof Error ? err.message : String(err);
		throw new RecordError('invalid_patch', `A state line's body must be a JSON object as text, e.g. "{\\"hp\\": 7}": ${reason}.`);
	}
}
