/** `backup` and `restore`: consistent copies of every database, and putting them back. */
import path from 'node:path';
import { parseConfig } from '../../config';
import { CliError } from '../errors';
import type { Command, CommandContext } from '../command';
import { serversHolding } from '../../db/local-files';
import { contentTypeOfKey } from '../../images';

/** Prints what `--verify` found; throws when the backup would not restore a working server. */
async function verify(ctx: CommandContext, dir: string): Promise<void> {
	const { verifyBackup } = await import('../../db/backup');
	const r = await verifyBackup(dir);
	for (const p of r.problems) ctx.out(`FAIL ${p}`);
	if (r.problems.length > 0) throw new CliError(`${r.problems.length} problem(s) in the backup ${dir} (listed above)`);
	ctx.out(
		`verified ${dir}: ${r.databases} database(s) pass PRAGMA integrity_check, ${r.images} image(s) match their SHA-256, every referenced image present`
	);
}

const backup: Command = {
	name: ['backup'],
	summary:
		'copy every database (control, sessions, save slots) and every image and cover into a new folder in DIR (safe while the server runs)',
	usage: '--out DIR [--verify] | --verify --from BACKUP',
	details: [
		'--out DIR           the backup root; each run writes DIR/kantera-backup-<UTC time>/ with manifest.json',
		'                    (SHA-256 of every file). Local databases are copied page for page, remote ones',
		'                    exported as JSON lines; images come from the image store (local folder or bucket).',
		'                    A database unchanged since the newest backup in DIR, and an image that backup holds,',
		'                    are hard-linked from it instead of copied again. Exit code 1 if anything failed.',
		'--verify            then check the backup: every file against its SHA-256, PRAGMA integrity_check of every',
		'                    database copy, every image a session, save slot or cover refers to present.',
		'                    Exit code 1 with the list of problems if any.',
		'--from BACKUP       with --verify: check this backup folder (DIR/kantera-backup-…) without taking a new one'
	],
	options: { out: { type: 'string' }, verify: { type: 'boolean' }, from: { type: 'string' } },
	async run(ctx, args) {
		const from = args.string('from');
		if (from !== undefined) {
			if (!args.flag('verify')) throw new CliError('--from is for --verify: kantera backup --verify --from BACKUP');
			await verify(ctx, path.resolve(from));
			return;
		}
		const out = path.resolve(args.requiredString('out'));
		const app = await ctx.app();
		const { runBackup } = await import('../../db/backup');
		const r = await runBackup({ config: app.config, control: app.control, sessions: app.sessions, images: app.images }, out);
		for (const f of r.manifest.failed) ctx.note(`${f.id}: not backed up: ${f.error}`);
		ctx.out(
			`${r.copied} database(s) copied, ${r.unchanged} unchanged; ${r.images.copied} image(s) copied, ${r.images.unchanged} unchanged ` +
				`since ${r.manifest.previous ?? '(no earlier backup)'}: ${r.dir}`
		);
		if (r.manifest.failed.length > 0)
			throw new CliError(
				`${r.manifest.failed.length} database(s) or image folder(s) could not be backed up (listed above and in the manifest)`
			);
		if (args.flag('verify')) await verify(ctx, r.dir);
	}
};

/**
 * Databases replaced under a running server lose what it writes afterwards (it keeps writing to the files it
 * has open, and its next start reads the restored ones): refused while one holds the data directory.
 */
function refuseWhileServed(ctx: CommandContext, dataDir: string, force: boolean): void {
	const held = serversHolding(dataDir);
	if (held.length === 0) return;
	const who = held.map((l) => `pid ${l.pid} on ${l.host} since ${l.since} (${l.file})`).join('; ');
	if (!force)
		throw new CliError(
			`a Kantera server is using ${dataDir}: ${who}. Stop it first; nothing was restored. ` +
				'If no server runs there (a lock left by another host, a reused pid), restore with --force.'
		);
	ctx.note(`--force: restoring although a server holds ${dataDir}: ${who}`);
}

const restore: Command = {
	name: ['restore'],
	summary:
		'put a backup back: the control database, every session database with its save slots, the images and covers, or one session with --session',
	usage: '--from BACKUP [--session ID] [--force]',
	details: [
		'--from BACKUP       a backup folder (DIR/kantera-backup-…) written by kantera backup',
		'--session ID        restore only this session’s database, save slots and images (the control database is left as it is)',
		'--force             restore even though a server holds the data directory (its lock file says so)',
		'Stop the server first: while one runs (a kantera-server-<pid>.lock of a live process in the data directory)',
		'restore refuses and changes nothing. Every file is checked against the manifest before anything changes; then each',
		'database is replaced whole and the images are put into the image store. Restored into the databases and the',
		'image store the current KANTERA_* settings point at',
		'(a file backup can be restored into a remote database and the other way round).'
	],
	options: { from: { type: 'string' }, session: { type: 'string' }, force: { type: 'boolean' } },
	async run(ctx, args) {
		const from = path.resolve(args.requiredString('from'));
		const only = args.string('session');
		refuseWhileServed(ctx, parseConfig(ctx.io.env).dataDir, args.flag('force'));
		const { readManifest, verifyEntries, restoreDatabase, restoreImages, imageFile } = await import('../../db/backup');
		const manifest = await readManifest(from).catch((err: unknown) => {
			throw new CliError(err instanceof Error ? err.message : String(err));
		});
		const sessions = only === undefined ? manifest.sessions : manifest.sessions.filter((s) => s.id === only);
		if (only !== undefined && sessions.length === 0) throw new CliError(`session ${only} is not in the backup ${from}`);
		// A session comes back with its save slots: its `saves` rows name these databases.
		const restored = new Set(sessions.map((s) => s.id));
		const saves = manifest.saves.filter((s) => restored.has(s.session));
		const restoreControl = only === undefined;
		// A session's images, and with the control database the preset covers' (every folder that is no session's).
		const sessionIds = new Set(manifest.sessions.map((s) => s.id));
		const images = manifest.images.filter((i) => restored.has(i.folder) || (restoreControl && !sessionIds.has(i.folder)));
		const files = [
			...(restoreControl ? [manifest.control] : []),
			...sessions,
			...saves,
			...images.map((i) => ({ ...i, file: imageFile(i) }))
		];
		await verifyEntries(from, files).catch((err: unknown) => {
			throw new CliError(err instanceof Error ? err.message : String(err));
		});
		if (restoreControl) {
			// Before the app opens it: the control database is replaced underneath nothing.
			const cfg = parseConfig(ctx.io.env);
			await restoreDatabase({ url: cfg.controlDb.url, authToken: cfg.controlDb.authToken }, from, manifest.control);
			ctx.note(`control database restored (${manifest.control.file})`);
		}
		const app = await ctx.app();
		for (const s of sessions) {
			await restoreDatabase(await app.sessions.placement.prepareRestore(s.id), from, s);
			ctx.note(`session ${s.id} restored (${s.file})`);
		}
		for (const s of saves) {
			await restoreDatabase(await app.sessions.placement.prepareRestore(s.id), from, s);
			ctx.note(`save slot ${s.id} of session ${s.session} restored (${s.file})`);
		}
		await restoreImages(from, images, (folder, key, bytes) => app.images.store.put(folder, key, bytes, contentTypeOfKey(key)));
		ctx.note(`${images.length} image(s) restored into the image store`);
		ctx.out(
			`restored ${restoreControl ? 'the control database, ' : ''}${sessions.length} session database(s), ${saves.length} save slot database(s) ` +
				`and ${images.length} image(s) from ${from}`
		);
	}
};

export const backupCommands: readonly Command[] = [backup, restore];
