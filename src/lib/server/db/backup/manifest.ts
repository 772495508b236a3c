/** The manifest of a backup folder: what it holds, each file's SHA-256, and what changed since the last one. */
import * as v from 'valibot';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export const MANIFEST_FILE = 'manifest.json';
export const BACKUP_FORMAT = 'kantera-backup';
/** Backup folders are named by their UTC time, so names sort in time order. */
export const BACKUP_NAME = /^kantera-backup-\d{8}T\d{9}Z$/;

const Sha256 = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/));
/** A session's database id, or a save slot's (placed the same way). */
const DatabaseId = v.pipe(v.string(), v.regex(/^[a-z2-7]{20}$/));

const EntrySchema = v.object({
	/** Where the copy is, relative to the backup folder; the only shapes a restore will read. */
	file: v.pipe(v.string(), v.regex(/^(control|(sessions|saves)\/[a-z2-7]{20})\.(db|jsonl)$/, 'unexpected file name')),
	/** `file`: a page-for-page copy of a local database; `export`: the JSON-lines export of a remote one. */
	kind: v.picklist(['file', 'export']),
	sha256: Sha256,
	bytes: v.pipe(v.number(), v.integer(), v.minValue(0)),
	/** SHA-256 of the database's export: equal between two backups when nothing in it changed. */
	contentHash: Sha256,
	/** Size and modification times of a local database's files when copied, to skip unchanged ones cheaply. */
	fingerprint: v.optional(v.string()),
	/** False when the database had not changed since the previous backup (the copy is that backup's, hard-linked). */
	changed: v.boolean()
});
export type ManifestEntry = v.InferOutput<typeof EntrySchema>;

/**
 * The image store's key shape (images/store.ts): content addressed, so an image whose folder and key are in
 * the previous backup is that backup's file, linked without reading the store again.
 */
const IMAGE_KEY = /^[a-z0-9][a-z0-9-]{0,127}\.(png|jpg|webp|svg)$/;

const ImageEntrySchema = v.object({
	/** The image store's folder: a play session's id or a preset cover's slot. */
	folder: DatabaseId,
	key: v.pipe(v.string(), v.regex(IMAGE_KEY, 'unexpected image key')),
	sha256: Sha256,
	bytes: v.pipe(v.number(), v.integer(), v.minValue(0)),
	/** False when the previous backup had it (this backup's file is that one, hard-linked). */
	changed: v.boolean()
});
export type ImageEntry = v.InferOutput<typeof ImageEntrySchema>;

/** Where an image is kept inside a backup folder. */
export const imageFile = (e: Pick<ImageEntry, 'folder' | 'key'>): string => `images/${e.folder}/${e.key}`;

const ManifestSchema = v.object({
	format: v.literal(BACKUP_FORMAT),
	version: v.literal(1),
	createdAt: v.string(),
	/** The backup this one was compared with, if any. */
	previous: v.nullable(v.string()),
	control: EntrySchema,
	sessions: v.array(v.object({ id: DatabaseId, ...EntrySchema.entries })),
	/**
	 * The save slots' databases (each a copy of its session's records at the save), by the session whose
	 * `saves` table names them. Absent in backups written before save slots were backed up.
	 */
	saves: v.optional(v.array(v.object({ id: DatabaseId, session: DatabaseId, ...EntrySchema.entries })), []),
	/**
	 * Every image of the sessions and preset covers backed up (the whole folder of each, so a save slot's older
	 * sprites come too). Absent in backups written before images were backed up.
	 */
	images: v.optional(v.array(ImageEntrySchema), []),
	/** Sessions, save slot databases and image folders that could not be copied, with why. */
	failed: v.array(v.object({ id: v.string(), error: v.string() }))
});
export type Manifest = v.InferOutput<typeof ManifestSchema>;

export class BackupError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'BackupError';
	}
}

export async function readManifest(dir: string): Promise<Manifest> {
	let json: unknown;
	try {
		json = JSON.parse(await readFile(path.join(dir, MANIFEST_FILE), 'utf8'));
	} catch (err) {
		throw new BackupError(
			`${dir} is not a Kantera backup: cannot read ${MANIFEST_FILE} (${err instanceof Error ? err.message : String(err)})`
		);
	}
	const parsed = v.safeParse(ManifestSchema, json);
	if (!parsed.success) {
		const issue = parsed.issues[0];
		throw new BackupError(
			`${dir}/${MANIFEST_FILE} is not a valid manifest: ${issue.path?.map((p) => String(p.key)).join('.') ?? ''} ${issue.message}`
		);
	}
	return parsed.output;
}
