/**
 * Answers follow questions. In the play log a line that asks something is answered by the line after
 * it, and the answer seldom repeats the question's words ("How often do you train with your family?"
 * — "Three times a week, it keeps us on track."). So when a logged question matches the query by its
 * own words, the line after it is given that match as well.
 *
 * Measured on LoCoMo (docs/performance.md): R@10 +2.6 over the word ranking alone, and +1.4 to +3.7
 * on the held-out pair of every 3/2 split of the development conversations; giving every next line
 * the match, question or not, gains only +0.6. It is the question that carries the signal.
 */
import { sql } from 'drizzle-orm';
import * as v from 'valibot';
import type { SessionExec } from '../db';
import type { SectionFilter } from './filter';
import { applyFilter, type Scored } from './keyword';

/** Share of the question's own-word score its answer receives: the pair is read as one exchange. */
const ANSWER_SHARE = 1;

const PairRow = v.object({ question: v.number(), answer: v.nullable(v.number()) });

/** `hits` (word side, best first) with the answers to the logged questions among them raised, best first. */
export async function answersFollowQuestions(exec: SessionExec, hits: readonly Scored[], filter: SectionFilter): Promise<Scored[]> {
	const asked = hits.filter((h) => (h.own ?? 0) > 0);
	if (asked.length === 0) return [...hits];
	const pairs = v.parse(
		v.array(PairRow),
		await exec.all(
			sql`SELECT q.id AS question,
				(SELECT n.id FROM sections n WHERE n.kind = 'log' AND n.id > q.id ORDER BY n.id LIMIT 1) AS answer
				FROM sections q
				WHERE q.id IN (${sql.join(
					asked.map((h) => h.id),
					sql`, `
				)}) AND q.kind = 'log' AND (instr(q.body, '?') > 0 OR instr(q.body, '？') > 0)`
		)
	);
	if (pairs.length === 0) return [...hits];
	const own = new Map(asked.map((h) => [h.id, h.own ?? 0]));
	const scores = new Map(hits.map((h) => [h.id, h.score]));
	const added: number[] = [];
	for (const { question, answer } of pairs) {
		if (answer === null) continue;
		if (!scores.has(answer)) added.push(answer);
		scores.set(answer, (scores.get(answer) ?? 0) + ANSWER_SHARE * (own.get(question) ?? 0));
	}
	// An answer that was not a hit itself has not been through the GM-only and kind filter yet.
	const allowed = new Set(await applyFilter(exec, added, filter));
	const ownOf = new Map(hits.map((h) => [h.id, h.own]));
	return [...scores]
		.filter(([id]) => ownOf.has(id) || allowed.has(id))
		.map(([id, score]): Scored => {
			const o = ownOf.get(id);
			return o === undefined ? { id, score } : { id, score, own: o };
		})
		.sort((a, b) => b.score - a.score);
}
