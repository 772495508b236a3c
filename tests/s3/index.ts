/**
 * A local S3-compatible server for the image store's tests: s3rver (a dev dependency; it speaks the S3
 * REST API over HTTP and keeps objects as files in a temp dir). It checks that the access key exists and
 * that the Signature V4 header is well formed, but does not recompute the signature (unimplemented in
 * s3rver): signatures themselves are not proven here. Only its default key pair exists: S3RVER / S3RVER.
 */
import S3rver from 's3rver';
import { AwsClient } from 'aws4fetch';
import { tempDir } from '../helpers/env';

export const S3_ACCESS_KEY_ID = 'S3RVER';
export const S3_SECRET_ACCESS_KEY = 'S3RVER';
export const S3_REGION = 'us-east-1';

export interface LocalS3 {
	endpoint: string;
	bucket: string;
	/** Object names in the bucket under `prefix`, listed through the S3 API. */
	list(prefix?: string): Promise<string[]>;
	/** The app's settings for this bucket. */
	env(extra?: Record<string, string>): Record<string, string>;
	close(): Promise<void>;
}

export async function startLocalS3(bucket = 'kantera-images'): Promise<LocalS3> {
	const { dir, remove } = tempDir('kantera-s3-');
	const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: bucket }] });
	const { port } = await server.run();
	const endpoint = `http://127.0.0.1:${port}`;
	const client = new AwsClient({ accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY, service: 's3', region: S3_REGION });
	return {
		endpoint,
		bucket,
		async list(prefix = '') {
			const res = await client.fetch(`${endpoint}/${bucket}?list-type=2&prefix=${encodeURIComponent(prefix)}`);
			if (!res.ok) throw new Error(`listing answered ${res.status}`);
			return [...(await res.text()).matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1] ?? '');
		},
		env: (extra = {}) => ({
			KANTERA_IMAGE_STORE: 's3',
			KANTERA_S3_BUCKET: bucket,
			KANTERA_S3_ENDPOINT: endpoint,
			KANTERA_S3_REGION: S3_REGION,
			KANTERA_S3_ACCESS_KEY_ID: S3_ACCESS_KEY_ID,
			KANTERA_S3_SECRET_ACCESS_KEY: S3_SECRET_ACCESS_KEY,
			...extra
		}),
		async close() {
			await server.close();
			remove();
		}
	};
}
