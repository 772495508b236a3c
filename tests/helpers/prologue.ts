/**
 * A world's title card and prologue written statement by statement in a transaction: what a session
 * started from a world holds (production writes them in the world seed's batch, `prologueQueries`),
 * for tests that need a prologue in a session the harness made, and for the seed's reference writes.
 */
import type { SessionTx } from '../../src/lib/server/db';
import { log } from '../../src/lib/server/records';
import { cues } from '../../src/lib/server/stage';
import {
	composePrologue,
	prologueMessage,
	titleCardQuery,
	PROLOGUE_TURN_ID,
	type PrologueSource
} from '../../src/lib/server/stage/prologue';

export async function writePrologue(tx: SessionTx, source: PrologueSource): Promise<{ messageId: number }> {
	await titleCardQuery(tx, source);
	const { body, cues: stageCues } = composePrologue(source);
	const message = await log.append(tx, prologueMessage(body));
	await cues.save(tx, { turnId: PROLOGUE_TURN_ID, messageId: message.id, cues: stageCues });
	return { messageId: message.id };
}
