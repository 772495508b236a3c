/**
 * LoCoMo (snap-research/LoCoMo) read for evaluation only: the data stays where the operator keeps
 * it and is never copied into the repository. The format and the protocol are those of the data
 * set's README: one play-log record per dialogue turn, body `<speaker> said, "<text>"` (plus
 * ` and shared <blip_caption>`), ref = its dia_id; evidence ids extracted with /D\d+:\d+/g and
 * dropped when not in the conversation.
 */
import { readFileSync } from 'node:fs';
import * as v from 'valibot';

const Turn = v.object({ speaker: v.string(), dia_id: v.string(), text: v.string(), blip_caption: v.optional(v.nullable(v.string())) });
const Qa = v.object({
	question: v.string(),
	evidence: v.optional(v.array(v.unknown()), []),
	category: v.number()
});
const Conversation = v.object({
	sample_id: v.string(),
	conversation: v.record(v.string(), v.unknown()),
	qa: v.array(Qa)
});

/** Category ids as the data set's README names them. */
export const CATEGORY_NAMES: Readonly<Record<number, string>> = {
	4: 'single-hop',
	1: 'multi-hop',
	2: 'temporal',
	3: 'open-domain',
	5: 'adversarial'
};
export const CATEGORY_ORDER = [4, 1, 2, 3, 5] as const;

interface LocomoTurn {
	ref: string;
	speaker: string;
	/** The record body the protocol prescribes. */
	body: string;
	session: number;
}

interface LocomoQuestion {
	question: string;
	category: number;
	/** Evidence dia_ids found in the conversation, in order, without repeats. */
	evidence: string[];
}

export interface LocomoConversation {
	id: string;
	turns: LocomoTurn[];
	questions: LocomoQuestion[];
}

function turnBody(t: { speaker: string; text: string; blip_caption?: string | null | undefined }): string {
	return `${t.speaker} said, "${t.text}"${t.blip_caption ? ` and shared ${t.blip_caption}` : ''}`;
}

export function loadLocomo(file: string): LocomoConversation[] {
	const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
	const data = v.parse(v.array(Conversation), raw);
	return data.map((c) => {
		const sessions = Object.keys(c.conversation)
			.flatMap((key) => {
				const m = /^session_(\d+)$/.exec(key);
				return m?.[1] ? [{ key, n: Number(m[1]) }] : [];
			})
			.sort((a, b) => a.n - b.n);
		const turns: LocomoTurn[] = sessions.flatMap(({ key, n }) =>
			v.parse(v.array(Turn), c.conversation[key]).map((t) => ({ ref: t.dia_id, speaker: t.speaker, body: turnBody(t), session: n }))
		);
		const known = new Set(turns.map((t) => t.ref));
		const questions = c.qa.map((qa) => {
			const ids =
				qa.evidence
					.map(String)
					.join(' ')
					.match(/D\d+:\d+/g) ?? [];
			return { question: qa.question, category: qa.category, evidence: [...new Set(ids.filter((id) => known.has(id)))] };
		});
		return { id: c.sample_id, turns, questions };
	});
}

export const RECALL_KS = [5, 10, 25, 50] as const;

/** Paper-style recall@k: share of the question's evidence in the top k (0 for a question without evidence). */
export function recallAt(evidence: readonly string[], ranked: readonly (string | null)[], k: number): number {
	if (evidence.length === 0) return 0;
	const top = new Set(ranked.slice(0, k));
	return evidence.filter((e) => top.has(e)).length / evidence.length;
}

/** Sums of recall@k per group (all, and each category). */
export class RecallTable {
	private readonly groups = new Map<string, { n: number; sums: number[] }>();

	add(category: number, evidence: readonly string[], ranked: readonly (string | null)[]): void {
		const scores = RECALL_KS.map((k) => recallAt(evidence, ranked, k));
		for (const key of ['all', String(category)]) {
			const g = this.groups.get(key) ?? { n: 0, sums: RECALL_KS.map(() => 0) };
			g.n++;
			scores.forEach((x, i) => (g.sums[i] = (g.sums[i] ?? 0) + x));
			this.groups.set(key, g);
		}
	}

	/** Recall@k in percent for a group ('all' or a category id), or undefined when it has no question. */
	row(key: string): { n: number; at: number[] } | undefined {
		const g = this.groups.get(key);
		if (!g) return undefined;
		return { n: g.n, at: g.sums.map((s) => (100 * s) / g.n) };
	}
}
