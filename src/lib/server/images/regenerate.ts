/**
 * A new image by hand (the player's "regenerate" button): a new order for a character's sprite or a
 * place's background, committed at once (it belongs to no turn) and metered like an LLM call: refused
 * when the player's day or the session is over budget, charged the per-image price when placed.
 */
import * as v from 'valibot';
import { eq } from 'drizzle-orm';
import { newId, sessionSchema } from '../db';
import { BudgetGuard, loadScopes, recordCall } from '../budget';
import { getPlaySession } from '../sessions';
import * as stage from '../stage';
import type { App } from '../app';
import { ImageJobError } from './errors';
import { MANUAL_ORDER_PREFIX } from './runner';
import type { ImageJob } from './jobs';

const { imageOrders } = sessionSchema;

export const RegenerateRequestSchema = v.object({
	target: v.picklist(['npc', 'scene'], 'target must be npc or scene'),
	name: v.pipe(v.string('name must be a string'), v.trim(), v.minLength(1, 'name must not be empty'), v.maxLength(stage.MAX_STAGE_NAME_CHARS, `name has at most ${stage.MAX_STAGE_NAME_CHARS} characters`))
});
export type RegenerateRequest = v.InferInput<typeof RegenerateRequestSchema>;

export type RegenerateDeps = Pick<App, 'config' | 'control' | 'sessions' | 'images'>;

/**
 * Places the order and kicks the runner; returns the order. Throws PlaySessionNotFoundError for a
 * session the user doesn't own, ImageJobError for bad input or an unknown name, and
 * BudgetExceededError when a budget is used up (nothing is placed or charged then).
 */
export async function regenerateImage(app: RegenerateDeps, sessionId: string, userId: string, request: RegenerateRequest, now = Date.now()): Promise<ImageJob> {
	const session = await getPlaySession(app, userId, sessionId);
	const parsed = v.safeParse(RegenerateRequestSchema, request);
	if (!parsed.success) throw new ImageJobError('invalid_input', parsed.issues[0].message);
	const { target, name } = parsed.output;
	const turnId = `${MANUAL_ORDER_PREFIX}${newId()}`;
	const limits = { ...app.config.engine.budget, maxToolRounds: app.config.engine.maxToolRounds };
	new BudgetGuard(await loadScopes(app.control.db, { userId, sessionId: session.id, turnId }, limits, now)).check();
	const placed = await app.sessions.use(session.id, (s) =>
		s.write(async (tx) => {
			let order: stage.imageOrders.OrderInput;
			if (target === 'npc') {
				const npc = await stage.npcs.get(tx, name);
				if (!npc) throw new ImageJobError('not_found', `No character named "${name}" is on the stage.`);
				order = { target, targetName: npc.name, prompt: stage.npcSpritePrompt(npc) };
			} else {
				const scene = await stage.scenes.get(tx, name);
				if (!scene) throw new ImageJobError('not_found', `No place named "${name}" is on the stage.`);
				order = { target, targetName: scene.name, prompt: stage.sceneBackgroundPrompt(scene) };
			}
			const placed = await stage.imageOrders.place(tx, order);
			// Committed at once: a hand-made order waits for no turn.
			const [row] = await tx.update(imageOrders).set({ turnId }).where(eq(imageOrders.id, placed.id)).returning();
			if (!row) throw new Error('image order update returned no row');
			return row;
		})
	);
	await recordCall(app.control.db, { userId, sessionId: session.id }, app.config.images.priceMicros, now);
	app.images.kick(session.id);
	return placed;
}
