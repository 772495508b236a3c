/**
 * A new image by hand (the player's "regenerate" button): a new order for a character's sprite or a
 * place's background, committed at once (it belongs to no turn). Each user has a daily allowance of
 * these; an order for a target that still has one waiting (pending or being generated) is that
 * order, not a second one. The image is charged like any other when it is generated, not when it is
 * ordered: an order that never produces an image costs nothing.
 */
import * as v from 'valibot';
import { newId, type ControlDb, type SessionDbPool, type SessionExec } from '../db';
import { BudgetGuard, loadScopes, returnRegeneration, takeRegeneration } from '../budget';
import { getPlaySession } from '../sessions';
import * as stage from '../stage';
import type { Config } from '../config';
import { ImageJobError, RegenerationLimitError } from './errors';
import { MANUAL_ORDER_PREFIX } from './runner';
import type { ImageJob } from './jobs';

export const RegenerateRequestSchema = v.object({
	target: v.picklist(['npc', 'scene'], 'target must be npc or scene'),
	name: v.pipe(
		v.string('name must be a string'),
		v.trim(),
		v.minLength(1, 'name must not be empty'),
		v.maxLength(stage.MAX_STAGE_NAME_CHARS, `name has at most ${stage.MAX_STAGE_NAME_CHARS} characters`)
	)
});
export type RegenerateRequest = v.InferInput<typeof RegenerateRequestSchema>;

/** What a hand-made order needs (an `App` fits): the limits, both databases, and the runner to wake. */
export interface RegenerateDeps {
	config: Pick<Config, 'engine' | 'images'>;
	control: ControlDb;
	sessions: SessionDbPool;
	images: { kick(sessionId: string): void };
}

/** The order for a character's sprite or a place's background, under its registered name. */
async function orderFor(exec: SessionExec, target: 'npc' | 'scene', name: string): Promise<stage.imageOrders.OrderInput> {
	if (target === 'npc') {
		const npc = await stage.npcs.get(exec, name);
		if (!npc) throw new ImageJobError('not_found', `No character named "${name}" is on the stage.`);
		return { target, targetName: npc.name, prompt: stage.npcSpritePrompt(npc) };
	}
	const scene = await stage.scenes.get(exec, name);
	if (!scene) throw new ImageJobError('not_found', `No place named "${name}" is on the stage.`);
	return { target, targetName: scene.name, prompt: stage.sceneBackgroundPrompt(scene) };
}

/**
 * Places the order (or finds the one already waiting for the target) and kicks the runner. Throws
 * PlaySessionNotFoundError for a session the user doesn't own, ImageJobError for bad input or an
 * unknown name, BudgetExceededError when a budget is used up and RegenerationLimitError when the
 * day's allowance is (nothing is placed then).
 */
export async function regenerateImage(
	app: RegenerateDeps,
	sessionId: string,
	userId: string,
	request: RegenerateRequest,
	now = Date.now()
): Promise<ImageJob> {
	const session = await getPlaySession(app, userId, sessionId);
	const parsed = v.safeParse(RegenerateRequestSchema, request);
	if (!parsed.success) throw new ImageJobError('invalid_input', parsed.issues[0].message);
	const { target, name } = parsed.output;
	const limits = { ...app.config.engine.budget, maxToolRounds: app.config.engine.maxToolRounds };
	new BudgetGuard(
		await loadScopes(app.control.db, { userId, sessionId: session.id, turnId: `${MANUAL_ORDER_PREFIX}check` }, limits, now)
	).check();

	const result = await app.sessions.use(session.id, async (s) => {
		const order = await orderFor(s.db, target, name);
		const waiting = await stage.imageOrders.waitingFor(s.db, order);
		if (waiting) return { order: waiting, placed: false };
		const allowance = app.config.images.regenerationsPerDay;
		const taken = await takeRegeneration(app.control.db, userId, allowance, now);
		if (!taken.ok) throw new RegenerationLimitError(allowance, taken.resetsAt);
		try {
			const outcome = await s.write(async (tx) => {
				// Another request may have ordered it since the look above.
				const again = await stage.imageOrders.waitingFor(tx, order);
				if (again) return { order: again, placed: false };
				const placed = await stage.imageOrders.place(tx, await orderFor(tx, target, name));
				// The author's art stands: nothing is drawn, and nothing is taken from the day's allowance.
				if (stage.imageOrders.isAuthorArt(placed)) return { order: placed, placed: false };
				// Committed at once: a hand-made order waits for no turn.
				return { order: await stage.imageOrders.claim(tx, placed.id, `${MANUAL_ORDER_PREFIX}${newId()}`), placed: true };
			});
			if (!outcome.placed) await returnRegeneration(app.control.db, userId, now);
			return outcome;
		} catch (err) {
			await returnRegeneration(app.control.db, userId, now);
			throw err;
		}
	});
	if (result.placed) app.images.kick(session.id);
	return result.order;
}
