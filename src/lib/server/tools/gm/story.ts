/**
 * The story DB tools (GM-only): the plot skeleton, confirmed truths, quests and clues. The split:
 * - story_read: read entries.
 * - story_begin: start something new — a plot entry, a quest (open), a clue (hidden).
 * - story_revise: rewrite a plot entry. Nothing else is revisable; truths above all.
 * - story_advance: move the story forward, never back — confirm a truth (append-only), close a
 *   quest with its result and the next plan in one write, reveal a clue or a secret truth to the
 *   player (after which the canon guard lets the GM say it).
 */
import * as v from 'valibot';
import { isRecordError, MAX_NAME_CHARS, story } from '../../records';
import type { SessionExec } from '../../db';
import { defineTool } from '../define';
import type { ToolContext } from '../context';
import { ToolError } from '../run';
import { onStage, quote, recorded, text } from './shared';

const MAX_STORY_BODY_CHARS = 8000;

const key = () => text(MAX_NAME_CHARS);
const title = () => v.optional(text(MAX_NAME_CHARS));

type Entry = story.StoryEntry;

/** Compact form for the model: only the fields that mean something for the entry's type. */
function show(e: Entry) {
	return {
		type: e.type,
		key: e.key,
		...(e.title !== e.key ? { title: e.title } : {}),
		body: e.body,
		...(e.type === 'quest'
			? { status: e.status ?? 'open', ...(e.result ? { result: e.result } : {}), ...(e.nextPlan ? { next_plan: e.nextPlan } : {}) }
			: {}),
		...(e.type === 'clue' ? { revealed: e.revealed ?? false } : {}),
		...(e.type === 'truth' && e.revealed ? { revealed: true } : {})
	};
}

export const storyReadTool = defineTool({
	name: 'story_read',
	description: 'Read your secret story DB.',
	schema: v.object({
		type: v.optional(v.picklist(story.STORY_TYPES)),
		key: v.optional(text(MAX_NAME_CHARS))
	}),
	async handler(args, ctx: ToolContext) {
		const entries = await ctx.read((exec) => story.read(exec, args.type === undefined ? {} : { type: args.type }));
		const wanted = args.key === undefined ? entries : entries.filter((e) => e.key === args.key?.trim());
		if (wanted.length === 0) {
			if (args.key !== undefined)
				throw new ToolError(
					`there is no ${args.type ?? 'story'} entry with key ${quote(args.key)}; call story_read without "key" to list the entries.`
				);
			return args.type === undefined ? 'The story DB is empty.' : `There are no ${args.type} entries yet.`;
		}
		return { entries: wanted.map(show) };
	}
});

const BEGIN_TYPES = ['plot', 'quest', 'clue'] as const;

export const storyBeginTool = defineTool({
	name: 'story_begin',
	description: 'Start a plot entry (arcs, plans), quest or hidden clue in your story DB, under a new key.',
	schema: v.object({
		type: v.picklist(
			BEGIN_TYPES,
			'type must be "plot", "quest" or "clue"; a truth is confirmed with story_advance (action "confirm_truth")'
		),
		key: key(),
		title: title(),
		body: text(MAX_STORY_BODY_CHARS)
	}),
	async handler(args, ctx: ToolContext) {
		const input = { key: args.key, body: args.body, ...(args.title === undefined ? {} : { title: args.title }) };
		switch (args.type) {
			case 'plot': {
				const entry = await recorded(() =>
					ctx.write(async (tx) => {
						if (await exists(tx, 'plot', input.key))
							throw new ToolError(`the plot entry ${quote(input.key.trim())} already exists; change it with story_revise.`);
						return story.setPlot(tx, input);
					})
				);
				return `Plot entry ${quote(entry.key)} set.`;
			}
			case 'quest': {
				const entry = await recorded(() => ctx.write((tx) => story.beginQuest(tx, input)));
				return `Quest ${quote(entry.key)} begun (open). Close it with story_advance action "resolve_quest".`;
			}
			case 'clue': {
				const entry = await recorded(() => ctx.write((tx) => story.addClue(tx, input)));
				return `Clue ${quote(entry.key)} added (hidden). Reveal it with story_advance action "reveal" when the player finds it.`;
			}
		}
	}
});

const reviseArgs = { key: key(), title: title(), body: text(MAX_STORY_BODY_CHARS) };

export const storyReviseTool = defineTool({
	name: 'story_revise',
	description: 'Rewrite a plot entry (nothing else is revisable).',
	// Only plot entries are revised, so the model is not offered a `type`; one it sends anyway is still
	// checked, so a truth, quest or clue gets the reason it cannot be revised (the loose object passes it on).
	schema: v.pipe(v.looseObject(reviseArgs), v.object({ type: v.optional(v.picklist(story.STORY_TYPES)), ...reviseArgs })),
	async handler(args, ctx: ToolContext) {
		const type = args.type ?? 'plot';
		if (type !== 'plot') throw new ToolError(notRevisable(type, args.key));
		const entry = await recorded(() =>
			ctx.write(async (tx) => {
				if (!(await exists(tx, 'plot', args.key))) {
					if (await exists(tx, 'truth', args.key)) throw new ToolError(notRevisable('truth', args.key));
					throw new ToolError(`there is no plot entry ${quote(args.key.trim())}; begin it with story_begin (type "plot").`);
				}
				return story.setPlot(tx, { key: args.key, body: args.body, ...(args.title === undefined ? {} : { title: args.title }) });
			})
		);
		return `Plot entry ${quote(entry.key)} revised.`;
	}
});

function notRevisable(type: story.StoryType, key: string): string {
	switch (type) {
		case 'truth':
			return `${quote(key.trim())} is a confirmed truth, and truths can never be revised or \
overwritten. If the story has moved on, confirm a new truth under a new key with story_advance \
(action "confirm_truth") that states what is true now.`;
		case 'quest':
			return (
				'quests are not revised: close one with story_advance (action "resolve_quest", with result and next ' +
				'plan), then begin a new quest to continue the thread.'
			);
		case 'clue':
			return 'clues are not revised: reveal one with story_advance (action "reveal"), or add a new clue with story_begin.';
		case 'plot':
			return 'plot entries are revised by key.';
	}
}

const ADVANCE_ACTIONS = ['confirm_truth', 'resolve_quest', 'reveal'] as const;
const truthBody = () => text(MAX_STORY_BODY_CHARS);
const outcome = () => v.optional(v.picklist(story.QUEST_ENDINGS));
const result = () => text(MAX_STORY_BODY_CHARS);
const nextPlan = () => text(MAX_STORY_BODY_CHARS);

const advanceFlat = v.object({
	action: v.picklist(ADVANCE_ACTIONS),
	key: key(),
	title: title(),
	body: v.optional(truthBody()),
	outcome: outcome(),
	result: v.optional(result()),
	next_plan: v.optional(nextPlan())
});

const advanceExact = v.variant('action', [
	v.object({ action: v.literal('confirm_truth'), key: key(), title: title(), body: truthBody() }, 'confirm_truth needs "key" and "body"'),
	v.object(
		{ action: v.literal('resolve_quest'), key: key(), outcome: outcome(), result: result(), next_plan: nextPlan() },
		'resolve_quest needs "key", "result" and "next_plan"'
	),
	v.object({ action: v.literal('reveal'), key: key() }, 'reveal needs "key"')
]);

export const storyAdvanceTool = defineTool({
	name: 'story_advance',
	description:
		'Move your secret story forward for good: confirm_truth (body), resolve_quest (result, next_plan), reveal (a clue or secret).',
	schema: v.pipe(advanceFlat, advanceExact),
	async handler(args, ctx: ToolContext) {
		switch (args.action) {
			case 'confirm_truth': {
				const witnesses = await onStage(ctx);
				const title = args.title === undefined ? {} : { title: args.title };
				const entry = await recorded(() => ctx.write((tx) => story.addTruth(tx, { key: args.key, body: args.body, ...title, witnesses })));
				return `Truth ${quote(entry.key)} confirmed. It can never be changed.`;
			}
			case 'resolve_quest': {
				const status = args.outcome ?? 'resolved';
				const entry = await recorded(() =>
					ctx.write((tx) => story.resolveQuest(tx, { key: args.key, status, result: args.result, nextPlan: args.next_plan }))
				);
				return `Quest ${quote(entry.key)} ${status}; result and next plan saved.`;
			}
			case 'reveal': {
				const entries = await recorded(() => ctx.write((tx) => story.reveal(tx, args.key)));
				return `${entries.map((e) => `${e.type === 'clue' ? 'Clue' : 'Truth'} ${quote(e.key)}`).join(' and ')} revealed: you may now tell the player.`;
			}
		}
	}
});

async function exists(exec: SessionExec, type: story.StoryType, entryKey: string): Promise<boolean> {
	try {
		await story.get(exec, type, entryKey);
		return true;
	} catch (err) {
		if (isRecordError(err, 'not_found')) return false;
		throw err;
	}
}
