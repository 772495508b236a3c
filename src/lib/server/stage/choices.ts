/**
 * The choices the GM offered with its latest reply (`adv_stage` choices): a menu the screen shows
 * once the reply has been read, each option sent as the player's next line when picked. Only the
 * latest offer matters (the player answers it or moves on), so it is one meta row, saved in the
 * turn's commit with the message it belongs to; a reader shows it only while that message is the
 * newest GM message.
 */
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { sessionSchema, type SessionExec, type SessionTx } from '../db';

const { meta } = sessionSchema;
const CHOICES_KEY = 'stage.choices';

export const ChoiceOfferSchema = v.object({ messageId: v.pipe(v.number(), v.integer()), options: v.array(v.string()) });
export type ChoiceOffer = v.InferOutput<typeof ChoiceOfferSchema>;

/** Records the offer of a GM message; call in the turn's commit. An empty list offers nothing. */
export async function save(tx: SessionTx, offer: ChoiceOffer): Promise<void> {
	await saveQuery(tx, offer);
}

/** `save`'s upsert, unrun: for a write batch. */
export function saveQuery(exec: Pick<SessionExec, 'insert'>, offer: ChoiceOffer) {
	const value = JSON.stringify(v.parse(ChoiceOfferSchema, offer));
	return exec.insert(meta).values({ key: CHOICES_KEY, value }).onConflictDoUpdate({ target: meta.key, set: { value } });
}

/** The latest offer, or null. A row that does not read as one (hand-edited, older) offers nothing. */
export async function latest(exec: SessionExec): Promise<ChoiceOffer | null> {
	const [row] = await exec.select({ value: meta.value }).from(meta).where(eq(meta.key, CHOICES_KEY));
	if (!row) return null;
	let raw: unknown;
	try {
		raw = JSON.parse(row.value);
	} catch {
		return null;
	}
	const parsed = v.safeParse(ChoiceOfferSchema, raw);
	return parsed.success && parsed.output.options.length > 0 ? parsed.output : null;
}
