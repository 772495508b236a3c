/**
 * A refused request's valibot issues as field problems (`{path, problem, limit?}`): what a client
 * needs to say in its reader's language what to fix, while the error's English `message` stays for
 * API clients. Only the kind of each issue is read, never a message, so any schema works as it is.
 */
import * as v from 'valibot';
import { hasControlCharacter } from '../validation';
import type { FieldProblem } from '../../types/api';

/** As many as the English message names. */
const MAX_PROBLEMS = 3;

const bound = (issue: v.BaseIssue<unknown>): number | undefined => (typeof issue.requirement === 'number' ? issue.requirement : undefined);

function problemOf(issue: v.BaseIssue<unknown>): Omit<FieldProblem, 'path'> {
	if (issue.kind === 'schema') {
		// A strict object names an extra key as "never"; a missing one arrives as undefined.
		if (issue.type === 'strict_object' && issue.expected === 'never') return { problem: 'unexpected' };
		return { problem: issue.received === 'undefined' ? 'required' : 'type' };
	}
	const limit = bound(issue);
	switch (issue.type) {
		case 'non_empty':
			return { problem: 'empty' };
		case 'min_length':
			return limit === undefined || limit <= 1 ? { problem: 'empty' } : { problem: 'tooShort', limit };
		case 'max_length':
			return limit === undefined ? { problem: 'tooLong' } : { problem: 'tooLong', limit };
		case 'min_value':
			return limit === undefined ? { problem: 'tooSmall' } : { problem: 'tooSmall', limit };
		case 'max_value':
			return limit === undefined ? { problem: 'tooLarge' } : { problem: 'tooLarge', limit };
		case 'regex':
			return { problem: 'format' };
		case 'check':
			// Every text schema refuses control characters with a check; a failed check on such text is that one.
			return typeof issue.input === 'string' && hasControlCharacter(issue.input) ? { problem: 'controlCharacter' } : { problem: 'invalid' };
		default:
			return { problem: 'invalid' };
	}
}

export function fieldProblems(issues: readonly v.BaseIssue<unknown>[]): FieldProblem[] {
	return issues.slice(0, MAX_PROBLEMS).map((issue) => ({ path: v.getDotPath(issue) ?? '', ...problemOf(issue) }));
}
