/**
 * npm run bench:backup [-- --sessions N] [--turns T] [--images I]
 *
 * Backups of a deployment on local files: N play sessions of T scripted turns each (scripts/bench-lib),
 * each with I stage images of 64 KB and a save slot, then
 *   - a full backup into an empty folder (time, bytes written);
 *   - after one more turn in one session and one new image, an incremental backup into the same folder
 *     (time, bytes written: what changed is copied, the rest hard-linked from the first);
 *   - `--verify` of the incremental backup (SHA-256 of every file, integrity_check of every copy, every
 *     referenced image present).
 * "Bytes written" counts the files a backup wrote itself (changed: true in its manifest); the linked ones
 * cost a directory entry. Not a test: figures go to docs/performance.md.
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../src/lib/server/app';
import { createUser } from '../src/lib/server/auth';
import { countTokensO200k } from '../src/lib/server/context-window';
import { createPlaySession } from '../src/lib/server/sessions';
import { saveGame } from '../src/lib/server/timetravel';
import { imageKey } from '../src/lib/server/images';
import { runBackup, verifyBackup, type BackupResult } from '../src/lib/server/db/backup';
import { CampaignScript } from './bench-lib/campaign-script';
import { ScriptedProvider } from './bench-lib/scripted-provider';
import { benchConfig, player, seedSession, tempDataDir } from './bench-lib/setup';
import { round, table } from './bench-lib/stats';

const { values: args } = parseArgs({
	options: {
		sessions: { type: 'string', default: '20' },
		turns: { type: 'string', default: '50' },
		images: { type: 'string', default: '20' }
	}
});
const SESSIONS = Number(args.sessions);
const TURNS = Number(args.turns);
const IMAGES = Number(args.images);
const IMAGE_BYTES = 64 * 1024;

const mb = (bytes: number) => round(bytes / 1024 / 1024, 2);

function written(r: BackupResult): number {
	const m = r.manifest;
	return [m.control, ...m.sessions, ...m.saves, ...m.images].filter((e) => e.changed).reduce((sum, e) => sum + e.bytes, 0);
}

function total(r: BackupResult): number {
	const m = r.manifest;
	return [m.control, ...m.sessions, ...m.saves, ...m.images].reduce((sum, e) => sum + e.bytes, 0);
}

async function main(): Promise<void> {
	const data = tempDataDir('kantera-bench-backup-');
	const out = mkdtempSync(path.join(tmpdir(), 'kantera-bench-backups-'));
	const cfg = benchConfig(data.dir, { KANTERA_BUDGET_SESSION_USD: '100' });
	const script = new CampaignScript();
	const provider = new ScriptedProvider(script, { countInput: () => 1000, countOutput: countTokensO200k });
	const app = await createApp(cfg, { provider: () => provider, countTokens: countTokensO200k });
	try {
		console.log(
			`backup bench: ${SESSIONS} sessions × ${TURNS} turns, ${IMAGES} images of 64 KB each, a save slot each; Node ${process.version}`
		);
		const user = await createUser(app, { name: 'bench', password: 'correct horse battery' }, { viaOperator: true });
		const players = [];
		for (let n = 0; n < SESSIONS; n++) {
			const session = await createPlaySession(app, { ownerId: user.id, title: `Campaign ${n}`, language: 'en' });
			await app.sessions.use(session.id, (s) => seedSession(s));
			const p = player(app, session.id, user.id);
			for (let i = 1; i <= TURNS; i++) {
				provider.current = i;
				await p.play(script.turn(i).player);
			}
			for (let i = 0; i < IMAGES; i++) {
				const bytes = randomBytes(IMAGE_BYTES);
				await app.images.store.put(session.id, imageKey(bytes, 'image/png'), bytes, 'image/png');
			}
			await app.sessions.use(session.id, (s) => saveGame(app, s, { name: 'Bench', quick: false }, 'en'));
			players.push(p);
		}
		const deps = { config: app.config, control: app.control, sessions: app.sessions, images: app.images };

		let t0 = performance.now();
		const full = await runBackup(deps, out, new Date('2026-01-01T00:00:00Z'));
		const fullMs = performance.now() - t0;

		const [first] = players;
		if (!first) throw new Error('no session');
		provider.current = TURNS + 1;
		await first.play(script.turn(TURNS + 1).player);
		const bytes = randomBytes(IMAGE_BYTES);
		await app.images.store.put(first.sessionId, imageKey(bytes, 'image/png'), bytes, 'image/png');
		t0 = performance.now();
		const incremental = await runBackup(deps, out, new Date('2026-01-02T00:00:00Z'));
		const incrementalMs = performance.now() - t0;

		t0 = performance.now();
		const verified = await verifyBackup(incremental.dir);
		const verifyMs = performance.now() - t0;
		if (verified.problems.length) throw new Error(`verify found problems: ${verified.problems.join('; ')}`);

		console.log(
			table(
				['backup', 'time (ms)', 'databases copied / linked', 'images copied / linked', 'backup size (MB)', 'written (MB)'],
				[
					[
						'full',
						round(fullMs, 0),
						`${full.copied} / ${full.unchanged}`,
						`${full.images.copied} / ${full.images.unchanged}`,
						mb(total(full)),
						mb(written(full))
					],
					[
						'incremental (1 turn, 1 image later)',
						round(incrementalMs, 0),
						`${incremental.copied} / ${incremental.unchanged}`,
						`${incremental.images.copied} / ${incremental.images.unchanged}`,
						mb(total(incremental)),
						mb(written(incremental))
					],
					['--verify of the incremental', round(verifyMs, 0), `${verified.databases} checked`, `${verified.images} checked`, '', '']
				]
			)
		);
	} finally {
		await app.close();
		data.remove();
		rmSync(out, { recursive: true, force: true });
	}
}

await main();
