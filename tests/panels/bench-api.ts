/**
 * Server side of opening the backlog: GET …/backlog's work (a page of messages, their cues, and the
 * stage before the page folded from every earlier cue) on a 5,000-message session with 3,750 cues.
 * Run: npx tsx tests/panels/bench-api.ts (part of npm run bench:backlog). Prints medians of 7 runs.
 */
import { testEnv } from '../helpers/env';
import { log } from '../../src/lib/server/records';
import { cues as stageCues } from '../../src/lib/server/stage';
import { logPage } from '../../src/lib/server/play';

const EXCHANGES = 2_500;
const RUNS = 7;

async function main(): Promise<void> {
	const env = await testEnv();
	const id = await env.sessionId();
	await env.app.sessions.use(id, (s) =>
		s.write(async (tx) => {
			for (let t = 0; t < EXCHANGES; t++) {
				await log.append(tx, { role: 'player', body: `I look (${t}).`, turnId: `t${t}` });
				const gm = await log.append(tx, { role: 'gm', body: `Fog ${t}.\n\n@Bram: Who goes there?\n\nA gull.`, turnId: `t${t}` });
				const list =
					t % 2 === 0
						? [
								{ paragraph: 0, action: 'background' as const, scene: `P${t % 4}` },
								{ paragraph: 1, action: 'enter' as const, character: `C${t % 5}`, slot: 'left' as const }
							]
						: [{ paragraph: 2, action: 'exit' as const, character: `C${(t + 3) % 5}` }];
				await stageCues.save(tx, { turnId: `t${t}`, messageId: gm.id, cues: list });
			}
		})
	);
	const time = async (label: string, q: { before?: number; limit: number }) => {
		const runs: number[] = [];
		for (let i = 0; i < RUNS; i++) {
			const t0 = performance.now();
			await env.app.sessions.use(id, (s) => logPage(s.db, id, { ...q, after: undefined }, { id: 'bench', language: 'en' }));
			runs.push(performance.now() - t0);
		}
		runs.sort((a, b) => a - b);
		const at = (i: number) => (runs[i] ?? 0).toFixed(1);
		console.log(`${label}: median ${at(RUNS >> 1)} ms (min ${at(0)}, max ${at(RUNS - 1)})`);
	};
	await time('GET …/backlog latest page (100 of 5,000 messages, 3,750 cues folded before it)', { limit: 100 });
	await time('GET …/backlog page in the middle', { before: 2_500, limit: 100 });
	await time('GET …/backlog first page', { before: 101, limit: 100 });
	await env.cleanup();
}

void main();
