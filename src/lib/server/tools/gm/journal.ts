/** journal_append / journal_read: the chronological, append-only record of what happened. */
import * as v from 'valibot';
import { journal } from '../../records';
import { defineTool } from '../define';
import type { ToolContext } from '../context';
import { int, onStage, recorded, text } from './shared';

/** One entry is an event, not a chapter. */
const MAX_JOURNAL_ENTRY_CHARS = 4000;
const MAX_JOURNAL_READ = 50;
const DEFAULT_JOURNAL_READ = 10;

export const journalAppendTool = defineTool({
	name: 'journal_append',
	description: 'Record a confirmed event (who, where, when) in the append-only journal.',
	schema: v.object({ entry: text(MAX_JOURNAL_ENTRY_CHARS) }),
	async handler(args, ctx: ToolContext) {
		// Those on stage saw it happen (recall's known_by finds it for them).
		const witnesses = await onStage(ctx);
		const row = await recorded(() => ctx.write(journal.appendWrite({ body: args.entry, witnesses })));
		return `Journal entry #${row.id} recorded.`;
	}
});

export const journalReadTool = defineTool({
	name: 'journal_read',
	description: `Read the last ${DEFAULT_JOURNAL_READ} journal entries, or those after after_id.`,
	schema: v.object({
		last: v.optional(int(1, MAX_JOURNAL_READ)),
		after_id: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)))
	}),
	async handler(args, ctx: ToolContext) {
		const limit = args.last ?? DEFAULT_JOURNAL_READ;
		const rows = await ctx.read((exec) =>
			args.after_id === undefined ? journal.recent(exec, limit) : journal.list(exec, { afterId: args.after_id, limit })
		);
		if (rows.length === 0) return args.after_id === undefined ? 'The journal is empty.' : `No journal entries after #${args.after_id}.`;
		return { entries: rows.map((r) => ({ id: r.id, entry: r.body })) };
	}
});
