/** `kantera doctor`: read-only checks that answer quickly even when nothing is reachable. */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { tempDir } from '../../helpers/env';
import { kanteraInProcess } from '../../helpers/cli';
import { startMockLlm } from '../../mock-llm';
import { migrate } from '../../../src/lib/server/db';
import { controlMigrations } from '../../../src/lib/server/db/migrations.generated';
import { runDoctor, type Finding } from '../../../src/lib/server/cli/doctor';
import { parseConfig, type Config } from '../../../src/lib/server/config';
import { S3ImageStore } from '../../../src/lib/server/images';
import { startLocalS3 } from '../../s3';
import { defaultWorkflow, startFakeA1111, startFakeComfyUi } from '../../image-generators';

function imageStoreOf(cfg: Config): Extract<Config['imageStore'], { kind: 's3' }> {
	if (cfg.imageStore.kind !== 's3') throw new Error('expected the S3 image store');
	return cfg.imageStore;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const c of cleanups.splice(0).reverse()) await c();
});

const find = (findings: Finding[], area: string) => findings.filter((f) => f.area === area);

/** A TCP server that accepts connections and never answers: a provider that hangs. */
async function silentServer(): Promise<{ port: number }> {
	const sockets = new Set<import('node:net').Socket>();
	const server: Server = createServer((s) => sockets.add(s));
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
	cleanups.push(() => {
		for (const s of sockets) s.destroy();
		return new Promise<void>((r) => server.close(() => r()));
	});
	const address = server.address();
	if (address === null || typeof address === 'string') throw new Error('no port');
	return { port: address.port };
}

async function closedPort(): Promise<number> {
	const { port } = await silentServer();
	await cleanups.pop()?.();
	return port;
}

describe('kantera doctor', () => {
	// The first check is the offline case of this machine: every provider unreachable, answered in time.
	it('reports unreachable providers clearly, within the time limit, and exits 1', async () => {
		const d = tempDir();
		cleanups.push(() => d.remove());
		const hang = await silentServer();
		const refused = await closedPort();
		const env = {
			KANTERA_DATA_DIR: d.dir,
			OPENAI_BASE_URL: `http://127.0.0.1:${refused}/v1`,
			KANTERA_LLM_MODEL: 'm',
			KANTERA_EMBEDDINGS: 'openai',
			KANTERA_EMBEDDINGS_BASE_URL: `http://127.0.0.1:${hang.port}/v1`,
			KANTERA_EMBEDDINGS_MODEL: 'e'
		};
		const run = await kanteraInProcess(d.dir, ['doctor', '--timeout-ms', '300'], undefined, env);
		expect(run.code).toBe(1);
		expect(run.stdout).toMatch(/FAIL\s+LLM provider\s+http:\/\/127\.0\.0\.1:\d+\/v1\/models unreachable: .*ECONNREFUSED/);
		expect(run.stdout).toMatch(/FAIL\s+embeddings provider\s+.* unreachable: no answer within 300 ms/);
		expect(run.stdout).toMatch(/control database\s+.*does not exist yet/);
		expect(run.stderr).toMatch(/2 check\(s\) failed/);
	});

	it('checks the databases: versions, pending migrations, stray session files; a reachable provider is ok', async () => {
		const d = tempDir();
		cleanups.push(() => d.remove());
		const mock = await startMockLlm();
		cleanups.push(() => mock.close());
		const env = {
			KANTERA_DATA_DIR: d.dir,
			OPENAI_BASE_URL: mock.openaiBaseUrl,
			OPENAI_API_KEY: 'sk-test',
			KANTERA_LLM_MODEL: 'mock-model'
		};
		expect((await kanteraInProcess(d.dir, ['user', 'create', '--name', 'alice', '--password-stdin'], 'wonderland\n', env)).code).toBe(0);
		expect((await kanteraInProcess(d.dir, ['sessions', 'create', '--title', 'One'], undefined, env)).code).toBe(0);
		mkdirSync(path.join(d.dir, 'sessions'), { recursive: true });
		writeFileSync(path.join(d.dir, 'sessions', 'aaaaaaaaaaaaaaaaaaaa.db'), '');
		const findings = await runDoctor(env, { timeoutMs: 2_000, repair: false });
		expect(find(findings, 'control database')).toEqual([
			expect.objectContaining({ status: 'ok', message: expect.stringMatching(/SQLite 3\.\d+.*migrations applied/) })
		]);
		expect(find(findings, 'session databases')).toEqual([
			expect.objectContaining({ status: 'ok', message: expect.stringMatching(/^1\/1 reachable \(files, SQLite/) })
		]);
		expect(find(findings, 'orphaned databases')).toEqual([
			expect.objectContaining({ status: 'warn', message: expect.stringContaining('aaaaaaaaaaaaaaaaaaaa.db') })
		]);
		// The mock LLM has no GET /models: reachable, with the status it gave (a 401/403 would be a FAIL).
		expect(find(findings, 'LLM provider')).toEqual([
			expect.objectContaining({ status: 'warn', message: expect.stringMatching(/\/v1\/models answered HTTP 404/) })
		]);
		expect(findings.filter((f) => f.status === 'fail')).toEqual([]);
	});

	it('asks a local image generator if it is there: ComfyUI for its system stats, AUTOMATIC1111 for its models with the credentials', async () => {
		const d = tempDir();
		cleanups.push(() => d.remove());
		const comfy = await startFakeComfyUi();
		cleanups.push(() => comfy.close());
		const a1111 = await startFakeA1111({ auth: 'kantera:right' });
		cleanups.push(() => a1111.close());
		writeFileSync(path.join(d.dir, 'flow.json'), JSON.stringify(defaultWorkflow()));
		const comfyEnv = {
			KANTERA_DATA_DIR: d.dir,
			KANTERA_IMAGES: 'comfyui',
			KANTERA_COMFYUI_URL: comfy.url,
			KANTERA_COMFYUI_WORKFLOW: path.join(d.dir, 'flow.json'),
			KANTERA_COMFYUI_PROMPT_NODE: '6'
		};
		expect(find(await runDoctor(comfyEnv, { timeoutMs: 2_000, repair: false }), 'image provider')).toEqual([
			expect.objectContaining({ status: 'ok', message: expect.stringMatching(/\/system_stats reachable/) })
		]);
		const a1111Env = {
			KANTERA_DATA_DIR: d.dir,
			KANTERA_IMAGES: 'a1111',
			KANTERA_A1111_URL: a1111.url,
			KANTERA_A1111_AUTH: 'kantera:right'
		};
		expect(find(await runDoctor(a1111Env, { timeoutMs: 2_000, repair: false }), 'image provider')).toEqual([
			expect.objectContaining({ status: 'ok', message: expect.stringMatching(/\/sdapi\/v1\/sd-models reachable/) })
		]);
		expect(
			find(await runDoctor({ ...a1111Env, KANTERA_A1111_AUTH: 'kantera:wrong' }, { timeoutMs: 2_000, repair: false }), 'image provider')
		).toEqual([expect.objectContaining({ status: 'fail', message: expect.stringMatching(/refused the key/) })]);
	});

	it('reports pending migrations without applying them, and a bad configuration', async () => {
		const d = tempDir();
		cleanups.push(() => d.remove());
		const c = createClient({ url: `file:${path.join(d.dir, 'control.db')}` });
		await migrate(c, controlMigrations.slice(0, 1));
		c.close();
		const findings = await runDoctor({ KANTERA_DATA_DIR: d.dir }, { timeoutMs: 1_000, repair: false });
		expect(find(findings, 'control database')[0]).toMatchObject({
			status: 'warn',
			message: expect.stringMatching(new RegExp(`${controlMigrations.length - 1} of ${controlMigrations.length} migration\\(s\\) pending`))
		});
		const again = await runDoctor({ KANTERA_DATA_DIR: d.dir }, { timeoutMs: 1_000, repair: false });
		expect(find(again, 'control database')[0]?.status).toBe('warn');

		const bad = await runDoctor(
			{ KANTERA_DATA_DIR: d.dir, KANTERA_SESSION_DB_CACHE: '0', KANTERA_TURSO_ORG: 'x' },
			{ timeoutMs: 1_000, repair: false }
		);
		expect(bad).toEqual([
			expect.objectContaining({ area: 'config', status: 'fail', message: expect.stringMatching(/KANTERA_SESSION_DB_CACHE/) })
		]);
	});
});

describe('kantera doctor with images in an S3-compatible bucket (s3rver)', () => {
	const SECRET = 'do-not-print-this-secret-0123456789';
	const messages = (findings: Finding[]) => findings.map((f) => f.message).join('\n');

	it('proves the bucket reachable and writable with a probe object it deletes again, lists folders nothing refers to, and --repair removes them', async () => {
		const s3 = await startLocalS3();
		cleanups.push(() => s3.close());
		const d = tempDir();
		cleanups.push(() => d.remove());
		const env = { KANTERA_DATA_DIR: d.dir, ...s3.env({ KANTERA_S3_PREFIX: 'imgs/' }) };
		// No control database yet: the bucket is checked all the same.
		const fresh = await runDoctor(env, { timeoutMs: 2_000, repair: false });
		expect(find(fresh, 'image store')).toEqual([
			expect.objectContaining({
				status: 'ok',
				message: expect.stringMatching(
					new RegExp(
						`^bucket ${s3.bucket} at http://127\\.0\\.0\\.1:\\d+/ \\(prefix imgs/\\) reachable and writable \\(probe object put and deleted`
					)
				)
			})
		]);
		expect(await s3.list()).toEqual([]);

		// A migrated control database with no sessions, and images of a session that no longer exists.
		const c = createClient({ url: `file:${path.join(d.dir, 'control.db')}` });
		await migrate(c, controlMigrations);
		c.close();
		const gone = 'a'.repeat(20);
		await new S3ImageStore(imageStoreOf(parseConfig(env))).put(gone, 'x1.svg', new TextEncoder().encode('<svg/>'), 'image/svg+xml');
		const findings = await runDoctor(env, { timeoutMs: 2_000, repair: false });
		expect(find(findings, 'image store')).toEqual([
			expect.objectContaining({ status: 'ok' }),
			expect.objectContaining({ status: 'info', message: 'images of 0 session(s) and 0 preset cover(s) in the bucket' }),
			expect.objectContaining({
				status: 'warn',
				message: `1 image folder(s) that no session or preset cover refers to: ${gone} (kantera doctor --repair lists and removes them)`
			})
		]);
		expect(await s3.list()).toEqual([`imgs/${gone}/x1.svg`]);
		const repaired = await runDoctor(env, { timeoutMs: 2_000, repair: true });
		expect(find(repaired, 'image store').slice(2)).toEqual([
			expect.objectContaining({
				status: 'info',
				message: `repair: removing 1 image folder(s) that no session or preset cover refers to: ${gone}`
			}),
			expect.objectContaining({ status: 'ok', message: 'repair: removed 1' })
		]);
		expect(await s3.list()).toEqual([]);
	});

	it('fails clearly, without the secret, on refused keys, a missing bucket and an unreachable endpoint', async () => {
		const s3 = await startLocalS3();
		cleanups.push(() => s3.close());
		const d = tempDir();
		cleanups.push(() => d.remove());
		const base = { KANTERA_DATA_DIR: d.dir };
		const check = async (extra: Record<string, string>, timeoutMs = 2_000) => {
			const findings = await runDoctor(
				{ ...base, ...s3.env({ KANTERA_S3_SECRET_ACCESS_KEY: SECRET, ...extra }) },
				{ timeoutMs, repair: false }
			);
			expect(messages(findings)).not.toContain(SECRET);
			return find(findings, 'image store');
		};
		expect(await check({ KANTERA_S3_ACCESS_KEY_ID: 'UNKNOWNKEY' })).toEqual([
			expect.objectContaining({
				status: 'fail',
				message: expect.stringMatching(/is not usable: the bucket answered PUT with 403 \(InvalidAccessKeyId\)/)
			})
		]);
		expect(await check({ KANTERA_S3_BUCKET: 'no-such-bucket' })).toEqual([
			expect.objectContaining({
				status: 'fail',
				message: expect.stringMatching(/^bucket no-such-bucket .* is not usable: the bucket answered PUT with 404 \(NoSuchBucket\)/)
			})
		]);
		const refused = await closedPort();
		expect(await check({ KANTERA_S3_ENDPOINT: `http://127.0.0.1:${refused}` })).toEqual([
			expect.objectContaining({ status: 'fail', message: expect.stringMatching(/is not usable: .*ECONNREFUSED/) })
		]);
		const hang = await silentServer();
		expect(await check({ KANTERA_S3_ENDPOINT: `http://127.0.0.1:${hang.port}` }, 300)).toEqual([
			expect.objectContaining({ status: 'fail', message: expect.stringMatching(/is not usable: no answer within 300 ms/) })
		]);
	});
});
