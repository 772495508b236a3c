/**
 * The choices the GM offered with its latest reply (`adv_stage` choices): a menu the screen shows
 * once the reply has been read, each option sent as the player's next line when picked. Only the
 * latest offer matters (the player answers it or moves on), so it is one meta row, saved in the
 * turn's commit with the message it belongs to; a reader shows it only while that message is the
 * newest GM message.
 */
import * as v from 'valibot';
import { meta, type SessionExec, type SessionTx } from '../db';

export const ChoiceOfferSchema = v.object({ messageId: v.pipe(v.number(), v.integer()), options: v.array(v.string()) });
export type ChoiceOffer = v.InferOutput<typeof ChoiceOfferSchema>;

/** Records the offer of a GM message; call in the turn's commit. An empty list offers nothing. */
export async function save(tx: SessionTx, offer: ChoiceOffer): Promise<void> {
	await saveQuery(tx, offer);
}

/** `save`'s upsert, unrun: for a write batch. */
export function saveQuery(exec: Pick<SessionExec, 'insert'>, offer: ChoiceOffer) {
	return meta.putJsonQuery(exec, 'stage.choices', v.parse(ChoiceOfferSchema, offer));
}

/** The latest offer, or null. A row that does not read as one (hand-edited, older) offers nothing. */
export async function latest(exec: SessionExec): Promise<ChoiceOffer | null> {
	const offer = await meta.readJson(exec, 'stage.choices', ChoiceOfferSchema);
	return offer && offer.options.length > 0 ? offer : null;
}
