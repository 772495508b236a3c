/**
 * Where generated images are kept: local files under the data directory (the default), or an
 * S3-compatible bucket (Amazon S3, Cloudflare R2, MinIO…) for hosts without a lasting local disk.
 */
import * as v from 'valibot';
import { HttpUrl, NonEmpty } from './env-values';

/** Spread into the environment schema of config/index.ts. */
export const IMAGE_STORE_ENV_ENTRIES = {
	/** `local` (files in KANTERA_DATA_DIR/images, the default) or `s3` (a bucket, set up below). */
	KANTERA_IMAGE_STORE: v.optional(v.picklist(['local', 's3'], 'must be local or s3'), 'local'),
	KANTERA_S3_BUCKET: v.optional(v.pipe(NonEmpty, v.regex(/^[a-z0-9][a-z0-9.-]{1,62}$/, 'must be a bucket name (a-z, 0-9, dots, dashes)'))),
	/** The service's origin; for Amazon S3 it defaults to `https://s3.<region>.amazonaws.com`. */
	KANTERA_S3_ENDPOINT: v.optional(HttpUrl),
	/** R2 takes `auto`; MinIO and most others take any value. */
	KANTERA_S3_REGION: v.optional(NonEmpty, 'us-east-1'),
	KANTERA_S3_ACCESS_KEY_ID: v.optional(NonEmpty),
	KANTERA_S3_SECRET_ACCESS_KEY: v.optional(NonEmpty),
	/** Put in front of every object name, e.g. `kantera/`; empty keeps the images at the bucket's root. */
	KANTERA_S3_PREFIX: v.optional(
		v.pipe(v.string(), v.trim(), v.regex(/^([a-z0-9._-]+\/)*$/, 'must be folder names of a-z, 0-9, dots, dashes, each ending in /')),
		''
	),
	/** Where the bucket can be read without signing (a public R2 URL, a CDN): images are then fetched from there. */
	KANTERA_S3_PUBLIC_URL: v.optional(HttpUrl)
};

type ImageStoreEnv = v.InferOutput<v.ObjectSchema<typeof IMAGE_STORE_ENV_ENTRIES, undefined>>;

export type ImageStoreConfig =
	| { kind: 'local' }
	| {
			kind: 's3';
			bucket: string;
			/** The service's origin, e.g. `https://<account>.r2.cloudflarestorage.com` or `http://127.0.0.1:9000`. */
			endpoint: string;
			region: string;
			accessKeyId: string;
			/** Signs requests; never logged. */
			secretAccessKey: string;
			/** Put in front of every object name (e.g. `kantera/`); empty for the bucket's root. */
			prefix: string;
			/** Where the bucket is readable without signing (a CDN, an R2 public URL); images are then fetched from there. */
			publicUrl: string | undefined;
	  };

export function imageStoreConfig(e: ImageStoreEnv): ImageStoreConfig | { error: string } {
	if (e.KANTERA_IMAGE_STORE === 'local') return { kind: 'local' };
	const { KANTERA_S3_BUCKET: bucket, KANTERA_S3_ACCESS_KEY_ID: accessKeyId, KANTERA_S3_SECRET_ACCESS_KEY: secretAccessKey } = e;
	if (bucket === undefined || accessKeyId === undefined || secretAccessKey === undefined) {
		const missing = [
			bucket === undefined && 'KANTERA_S3_BUCKET',
			accessKeyId === undefined && 'KANTERA_S3_ACCESS_KEY_ID',
			secretAccessKey === undefined && 'KANTERA_S3_SECRET_ACCESS_KEY'
		].filter((name) => typeof name === 'string');
		return { error: `${missing.join(', ')}: required when KANTERA_IMAGE_STORE=s3` };
	}
	return {
		kind: 's3',
		bucket,
		endpoint: (e.KANTERA_S3_ENDPOINT ?? `https://s3.${e.KANTERA_S3_REGION}.amazonaws.com`).replace(/\/+$/, ''),
		region: e.KANTERA_S3_REGION,
		accessKeyId,
		secretAccessKey,
		prefix: e.KANTERA_S3_PREFIX,
		publicUrl: e.KANTERA_S3_PUBLIC_URL?.replace(/\/+$/, '')
	};
}
