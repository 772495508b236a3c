/**
 * The image store: a local folder proven writable with a probe file, or an S3-compatible bucket proven
 * reachable and writable with a probe object; and the image folders of sessions that no longer exist.
 */
import { readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config';
import { S3ImageStore } from '../../images';
import type { DoctorOptions, Finding } from './finding';
import { reason, redactUrl, withTimeout } from './probe';

const IMAGE_AREA = 'image store';

function strayImages(stray: string[]): Finding[] {
	return stray.length
		? [
				{
					area: IMAGE_AREA,
					status: 'warn',
					message: `${stray.length} image folder(s) of deleted sessions: ${stray.slice(0, 5).join(', ')}`
				}
			]
		: [];
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

/** The sessions with images in the bucket that have no play session any more (only once the bucket answered). */
async function checkBucketFolders(
	cfg: Extract<Config['imageStore'], { kind: 's3' }>,
	ids: Set<string>,
	timeoutMs: number
): Promise<Finding[]> {
	try {
		const folders = await withTimeout(new S3ImageStore(cfg).sessionFolders(AbortSignal.timeout(timeoutMs)), timeoutMs);
		return [
			{ area: IMAGE_AREA, status: 'info', message: `images of ${folders.filter((f) => ids.has(f)).length} session(s) in the bucket` },
			...strayImages(folders.filter((f) => !ids.has(f)))
		];
	} catch (err) {
		return [{ area: IMAGE_AREA, status: 'warn', message: `could not list the bucket's session folders: ${reason(err)}` }];
	}
}

export /** The configured image store; `ids` are the play sessions (undefined: none can be known, the control database is missing). */
async function checkImages(cfg: Config, ids: Set<string> | undefined, opts: DoctorOptions): Promise<Finding[]> {
	const area = IMAGE_AREA;
	if (cfg.imageStore.kind === 's3') {
		const bucket = await checkBucket(cfg.imageStore, opts.timeoutMs);
		return bucket.ok && ids ? [...bucket.findings, ...(await checkBucketFolders(cfg.imageStore, ids, opts.timeoutMs))] : bucket.findings;
	}
	if (!ids) return [];
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
	const folders = (await readdir(root)).filter((f) => !f.startsWith('.'));
	const stray = folders.filter((f) => !ids.has(f));
	return [
		{ area, status: 'ok', message: `${root} writable, images of ${folders.length - stray.length} session(s)` },
		...strayImages(stray)
	];
}
