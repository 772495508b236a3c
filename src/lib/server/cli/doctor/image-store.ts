/**
 * The image store: a local folder proven writable with a probe file, or an S3-compatible bucket proven
 * reachable and writable with a probe object; and the image folders nothing refers to any more. A folder
 * is a play session's or a preset cover's (official worlds' included), so both are owners: a folder is
 * stray only when neither a session nor a cover names it, and --repair removes it after listing it.
 */
import { readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config';
import { isSessionId } from '../../db';
import { createImageStore, S3ImageStore } from '../../images';
import type { DoctorOptions, Finding } from './finding';
import { reason, redactUrl, withTimeout } from './probe';
import { reportStrays } from './strays';

const IMAGE_AREA = 'image store';

/** The play sessions and the preset covers: every name an image folder may have. */
export interface ImageOwners {
	sessions: Set<string>;
	covers: Set<string>;
}

const owned = (owners: ImageOwners) => (folder: string) => owners.sessions.has(folder) || owners.covers.has(folder);

function strayImages(
	folders: string[],
	owners: ImageOwners,
	opts: DoctorOptions,
	remove: (folder: string) => Promise<void>
): Promise<Finding[]> {
	return reportStrays({
		area: IMAGE_AREA,
		what: 'image folder(s) that no session or preset cover refers to',
		names: folders.filter((f) => !owned(owners)(f)),
		repair: opts.repair,
		remove
	});
}

function ownedText(folders: string[], owners: ImageOwners): string {
	const sessions = folders.filter((f) => owners.sessions.has(f)).length;
	return `images of ${sessions} session(s) and ${folders.filter((f) => owners.covers.has(f)).length} preset cover(s)`;
}

/**
 * The bucket of an S3-compatible store: a probe object put and deleted proves it reachable and writable
 * with the configured keys. Reported by bucket and endpoint; the keys never appear.
 */
async function checkBucket(
	cfg: Extract<Config['imageStore'], { kind: 's3' }>,
	timeoutMs: number
): Promise<{ ok: boolean; findings: Finding[] }> {
	const store = new S3ImageStore(cfg);
	const where = `bucket ${cfg.bucket} at ${redactUrl(cfg.endpoint)}${cfg.prefix ? ` (prefix ${cfg.prefix})` : ''}`;
	const start = Date.now();
	const signal = AbortSignal.timeout(timeoutMs);
	try {
		await withTimeout(store.probe(signal), timeoutMs);
	} catch (err) {
		const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError' || err.name === 'ProbeTimeout');
		const why = timedOut ? `no answer within ${timeoutMs} ms` : reason(err);
		return { ok: false, findings: [{ area: IMAGE_AREA, status: 'fail', message: `${where} is not usable: ${why}` }] };
	}
	return {
		ok: true,
		findings: [
			{
				area: IMAGE_AREA,
				status: 'ok',
				message: `${where} reachable and writable (probe object put and deleted, ${Date.now() - start} ms)`
			}
		]
	};
}

/** The image folders in the bucket and those nothing refers to (only once the bucket answered). */
async function checkBucketFolders(
	cfg: Extract<Config['imageStore'], { kind: 's3' }>,
	owners: ImageOwners,
	opts: DoctorOptions
): Promise<Finding[]> {
	const store = new S3ImageStore(cfg);
	let folders: string[];
	try {
		folders = await withTimeout(store.sessionFolders(AbortSignal.timeout(opts.timeoutMs)), opts.timeoutMs);
	} catch (err) {
		return [{ area: IMAGE_AREA, status: 'warn', message: `could not list the bucket's image folders: ${reason(err)}` }];
	}
	return [
		{ area: IMAGE_AREA, status: 'info', message: `${ownedText(folders, owners)} in the bucket` },
		...(await strayImages(folders, owners, opts, (folder) => store.deleteSession(folder)))
	];
}

/**
 * The configured image store; `owners` are the play sessions and preset covers (undefined: they cannot be
 * known, the control database is missing or not migrated, so no folder is judged).
 */
export async function checkImages(cfg: Config, owners: ImageOwners | undefined, opts: DoctorOptions): Promise<Finding[]> {
	const area = IMAGE_AREA;
	if (cfg.imageStore.kind === 's3') {
		const bucket = await checkBucket(cfg.imageStore, opts.timeoutMs);
		return bucket.ok && owners ? [...bucket.findings, ...(await checkBucketFolders(cfg.imageStore, owners, opts))] : bucket.findings;
	}
	if (!owners) return [];
	const root = path.join(cfg.dataDir, 'images');
	const exists = await stat(root).catch(() => undefined);
	if (!exists) return [{ area, status: 'info', message: `${root} does not exist yet (made with the first image)` }];
	const probe = path.join(root, `.doctor-${process.pid}`);
	try {
		await writeFile(probe, 'probe');
		await rm(probe, { force: true });
	} catch (err) {
		return [{ area, status: 'fail', message: `${root} is not writable: ${reason(err)}` }];
	}
	// Only names the store writes (temp files and anything an operator put there are not judged).
	const folders = (await readdir(root)).filter((f) => isSessionId(f));
	return [
		{ area, status: 'ok', message: `${root} writable, ${ownedText(folders, owners)}` },
		...(await strayImages(folders, owners, opts, (folder) => rm(path.join(root, folder), { recursive: true, force: true })))
	];
}

/**
 * The images the sessions and covers refer to (folder → keys) that the store does not hold: each answers
 * 404 on the stage or the gallery while its record says it is drawn. A restore from a backup brings them back.
 */
export async function checkMissingImages(cfg: Config, referenced: Map<string, string[]>, opts: DoctorOptions): Promise<Finding[]> {
	const store = await createImageStore(cfg.imageStore, cfg.dataDir);
	const missing: string[] = [];
	let count = 0;
	try {
		for (const [folder, keys] of referenced) {
			if (keys.length === 0) continue;
			const held = new Set(await withTimeout(store.keys(folder), opts.timeoutMs));
			count += keys.length;
			for (const key of keys) if (!held.has(key)) missing.push(`${folder}/${key}`);
		}
	} catch (err) {
		return [{ area: IMAGE_AREA, status: 'warn', message: `could not list the images the records refer to: ${reason(err)}` }];
	}
	if (missing.length === 0)
		return count ? [{ area: IMAGE_AREA, status: 'ok', message: `all ${count} image(s) the records refer to present` }] : [];
	const more = missing.length > 10 ? `, and ${missing.length - 10} more` : '';
	return [
		{
			area: IMAGE_AREA,
			status: 'warn',
			message:
				`${missing.length} of ${count} image(s) the records refer to are missing from the store: ${missing.slice(0, 10).join(', ')}${more} ` +
				'(they answer 404; kantera restore from a backup brings them back)'
		}
	];
}
