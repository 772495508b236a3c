/**
 * Images in an S3-compatible bucket (Amazon S3, Cloudflare R2, MinIO…), for hosts without a lasting
 * local disk. Requests are signed with AWS Signature V4 by `aws4fetch` (fetch only, so it runs on
 * isolates too) and address objects path-style: `<endpoint>/<bucket>/<prefix><sessionId>/<key>`.
 * Four calls are used: PUT, GET and DELETE of an object, and ListObjectsV2 to find a deleted
 * session's images (and, for `kantera doctor`, the sessions that have images). The secret only ever
 * signs requests; it is never logged or put in an error.
 */
import { randomBytes } from 'node:crypto';
import { AwsClient } from 'aws4fetch';
import type { ImageStoreConfig } from '../config';
import * as v from 'valibot';
import { ImageStoreError } from './errors';
import type { ImageContentType } from './provider';
import { isSessionId } from '../db';
import { checkKey, checkSession, contentTypeOfKey, IMAGE_KEY_PATTERN, type ImageStore, type StoredImage } from './store';

/** The bucket and its credentials, as the settings give them (`KANTERA_S3_*`). */
export type S3StoreOptions = Omit<Extract<ImageStoreConfig, { kind: 's3' }>, 'kind'>;

/** Signed requests retried by aws4fetch on 5xx and throttling; the image job retries beyond that. */
const S3_RETRIES = 2;
/** Objects deleted at once while a session's images go. */
const DELETE_CONCURRENCY = 8;

const ListPage = v.object({
	keys: v.array(v.string()),
	/** The `CommonPrefixes` of a listing with a delimiter (the `Prefix` echoing the request's is left out). */
	folders: v.array(v.string()),
	truncated: v.boolean(),
	next: v.optional(v.pipe(v.string(), v.minLength(1)))
});

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (text: string) => text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => XML_ENTITIES[name] ?? '');

/** The parts of a ListObjectsV2 answer used here; anything else in it is ignored. */
function parseListPage(xml: string): v.InferOutput<typeof ListPage> {
	const tag = (name: string) => [...xml.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, 'g'))].map((m) => unescapeXml(m[1] ?? ''));
	const page = v.safeParse(ListPage, {
		keys: tag('Key'),
		folders: [...xml.matchAll(/<CommonPrefixes>\s*<Prefix>([^<]*)<\/Prefix>/g)].map((m) => unescapeXml(m[1] ?? '')),
		truncated: tag('IsTruncated')[0] === 'true',
		next: tag('NextContinuationToken')[0]
	});
	if (!page.success) throw new ImageStoreError('the bucket answered the listing with something that is not a ListObjectsV2 result');
	return page.output;
}

/** The S3 error code of a failed call (`NoSuchBucket`, `SignatureDoesNotMatch`…), for the message. */
async function errorCode(res: Response): Promise<string> {
	const body = await res.text().catch(() => '');
	return /<Code>([A-Za-z0-9.]{1,64})<\/Code>/.exec(body)?.[1] ?? 'no error code';
}

export class S3ImageStore implements ImageStore {
	private readonly client: AwsClient;
	private readonly base: string;

	constructor(private readonly opts: S3StoreOptions) {
		this.client = new AwsClient({
			accessKeyId: opts.accessKeyId,
			secretAccessKey: opts.secretAccessKey,
			service: 's3',
			region: opts.region,
			retries: S3_RETRIES
		});
		this.base = `${opts.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(opts.bucket)}`;
	}

	async put(sessionId: string, key: string, bytes: Uint8Array, contentType: ImageContentType): Promise<void> {
		const name = this.objectName(sessionId, key);
		if (contentTypeOfKey(key) !== contentType)
			throw new ImageStoreError(`image key "${key}" does not match its content type ${contentType}`);
		// A PUT replaces the object whole: a reader never sees half an image.
		const res = await this.call('PUT', name, { body: new Uint8Array(bytes), headers: { 'content-type': contentType } });
		if (!res.ok) throw await this.failure('PUT', res);
		await res.body?.cancel();
	}

	async get(sessionId: string, key: string): Promise<StoredImage | undefined> {
		const res = await this.call('GET', this.objectName(sessionId, key));
		if (res.status === 404) {
			await res.body?.cancel();
			return undefined;
		}
		if (!res.ok) throw await this.failure('GET', res);
		// The type follows from the key, as for local files: whatever the bucket says is not trusted.
		return { bytes: new Uint8Array(await res.arrayBuffer()), contentType: contentTypeOfKey(key) };
	}

	async deleteSession(sessionId: string): Promise<void> {
		const folder = `${this.opts.prefix}${checkSession(sessionId)}/`;
		const names: string[] = [];
		for await (const page of this.list({ prefix: folder }))
			for (const name of page.keys) {
				// Only names this store writes are deleted; anything else under the folder is not ours to touch.
				if (name.startsWith(folder) && IMAGE_KEY_PATTERN.test(name.slice(folder.length))) names.push(name);
				else console.warn(`[kantera] image store: left ${JSON.stringify(name.slice(0, 200))} in the bucket (not an image name)`);
			}
		for (let i = 0; i < names.length; i += DELETE_CONCURRENCY) {
			await Promise.all(
				names.slice(i, i + DELETE_CONCURRENCY).map(async (name) => {
					const res = await this.call('DELETE', name);
					// 404: already gone, which is what was asked.
					if (!res.ok && res.status !== 404) throw await this.failure('DELETE', res);
					await res.body?.cancel();
				})
			);
		}
	}

	async keys(sessionId: string): Promise<string[]> {
		const folder = `${this.opts.prefix}${checkSession(sessionId)}/`;
		const keys: string[] = [];
		for await (const page of this.list({ prefix: folder }))
			for (const name of page.keys)
				if (name.startsWith(folder) && IMAGE_KEY_PATTERN.test(name.slice(folder.length))) keys.push(name.slice(folder.length));
		return keys.sort();
	}

	/**
	 * Proves the bucket reachable and writable with these credentials: writes a small object next to the
	 * session folders and deletes it again (`kantera doctor`). Throws an ImageStoreError naming the call
	 * and the bucket's error code, or the network error.
	 */
	async probe(signal?: AbortSignal): Promise<void> {
		const name = `${this.opts.prefix}.kantera-probe-${randomBytes(6).toString('hex')}`;
		const put = await this.call('PUT', name, { body: 'probe', headers: { 'content-type': 'text/plain' }, signal });
		if (!put.ok) throw await this.failure('PUT', put);
		await put.body?.cancel();
		const del = await this.call('DELETE', name, { signal });
		if (!del.ok && del.status !== 404) throw await this.failure('DELETE', del);
		await del.body?.cancel();
	}

	/** The sessions that have a folder of images in the bucket (`kantera doctor` looks for deleted ones). */
	async sessionFolders(signal?: AbortSignal): Promise<string[]> {
		const ids: string[] = [];
		for await (const page of this.list({ prefix: this.opts.prefix, delimiter: '/' }, signal))
			for (const folder of page.folders) {
				const id = folder.slice(this.opts.prefix.length, -1);
				if (folder.startsWith(this.opts.prefix) && folder.endsWith('/') && isSessionId(id)) ids.push(id);
			}
		return ids;
	}

	publicUrl(sessionId: string, key: string): string | undefined {
		if (this.opts.publicUrl === undefined) return undefined;
		return `${this.opts.publicUrl.replace(/\/+$/, '')}/${this.objectName(sessionId, key)}`;
	}

	/** `<prefix><sessionId>/<key>`, both checked against their strict patterns (no encoding needed after that). */
	private objectName(sessionId: string, key: string): string {
		return `${this.opts.prefix}${checkSession(sessionId)}/${checkKey(key)}`;
	}

	/** The pages of a ListObjectsV2 listing, following continuation tokens. */
	private async *list(
		params: { prefix: string; delimiter?: string },
		signal?: AbortSignal
	): AsyncGenerator<v.InferOutput<typeof ListPage>> {
		let token: string | undefined;
		do {
			const query = new URLSearchParams({ 'list-type': '2', ...params, ...(token ? { 'continuation-token': token } : {}) });
			const res = await this.client.fetch(`${this.base}?${query.toString()}`, { signal });
			if (!res.ok) throw await this.failure('LIST', res);
			const page = parseListPage(await res.text());
			yield page;
			token = page.truncated ? page.next : undefined;
		} while (token);
	}

	private call(method: 'PUT' | 'GET' | 'DELETE', name: string, init: RequestInit = {}): Promise<Response> {
		return this.client.fetch(`${this.base}/${name}`, { ...init, method });
	}

	private async failure(what: string, res: Response): Promise<ImageStoreError> {
		return new ImageStoreError(`the bucket answered ${what} with ${res.status} (${await errorCode(res)})`);
	}
}
