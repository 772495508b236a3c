/**
 * Configuration: read once from the environment, validated with valibot, frozen.
 * Server code never reads process.env directly; it asks for `config()` (or receives a Config in tests).
 */
import * as v from 'valibot';
import { Bool, NonEmpty, NonNegativeInt, PositiveInt } from './env-values';
import path from 'node:path';
import { LLM_ENV_ENTRIES, llmConfig, type LlmConfig } from './llm';
import { ENGINE_ENV_ENTRIES, engineConfig, type EngineConfig } from './engine';
import { IMAGES_ENV_ENTRIES, imagesConfig, type ImagesConfig } from './images';
import { PRESETS_ENV_ENTRIES, presetsConfig, type PresetsConfig } from './presets';
import { AUTH_ENV_ENTRIES, authProvidersConfig, type SignInProvidersConfig } from './auth';
import { freeModelConfig, TIERS_ENV_ENTRIES, type TiersConfig } from './tiers';
import { DEPLOY_ENV_ENTRIES, deployConfig, type BackupConfig, type TursoConfig } from './deploy';
import { OPS_ENV_ENTRIES, opsConfig, type OpsConfig } from './ops';
import { IMAGE_STORE_ENV_ENTRIES, imageStoreConfig, type ImageStoreConfig } from './image-store';

export { LLM_SETUP_HINT, type LlmConfig } from './llm';
export { type ImagesConfig, type A1111Settings, type LocalGeneratorSettings } from './images';
export { type ComfyUiSettings, type ComfyWorkflow, type ComfyInput } from './comfyui';

export { type SignInProvidersConfig, type OAuthClientConfig } from './auth';
export type { FreeModel } from './tiers';
export type { BackupConfig, TursoConfig } from './deploy';
export type { OpsConfig, LogFormat, LogLevel } from './ops';
export type { ImageStoreConfig } from './image-store';
export {
	contextTokensFor,
	KNOWN_CONTEXT_TOKENS,
	UNKNOWN_MODEL_CONTEXT_TOKENS,
	MIN_CONTEXT_TOKENS,
	type ContextTokensConfig,
	type ContextPair
} from './context';
export { DEFAULT_PRICES, PriceTableSchema, dollarsToMicros, MICROS_PER_DOLLAR, type PriceTable, type ModelPrice } from './prices';

const Url = v.pipe(v.string(), v.trim(), v.url('must be a URL'));

const EnvSchema = v.object({
	KANTERA_DATA_DIR: v.optional(NonEmpty, './data'),
	/** Control database (users, auth sessions, tokens, the index of play sessions). */
	KANTERA_CONTROL_DB_URL: v.optional(NonEmpty),
	KANTERA_CONTROL_DB_AUTH_TOKEN: v.optional(v.string()),
	/**
	 * URL template for per-session databases; `{id}` is replaced by the validated session id. With Turso
	 * databases per session, `{hostname}` is the database's hostname as the Platform API reported it.
	 */
	KANTERA_SESSION_DB_URL: v.optional(
		v.pipe(v.string(), v.trim(), v.regex(/\{id\}|\{hostname\}/, 'must contain {id} (or {hostname} with Turso)'))
	),
	KANTERA_SESSION_DB_AUTH_TOKEN: v.optional(v.string()),
	/** How many session databases stay open at once (LRU). */
	KANTERA_SESSION_DB_CACHE: v.optional(PositiveInt, '64'),
	KANTERA_ALLOW_SIGNUP: v.optional(Bool, 'true'),
	/** Cookie sessions live this many days, sliding. */
	KANTERA_AUTH_SESSION_DAYS: v.optional(PositiveInt, '30'),
	/** Embeddings: `offline` (built in, no network) or `openai` (any OpenAI-compatible /v1/embeddings). */
	KANTERA_EMBEDDINGS: v.optional(v.picklist(['offline', 'openai'], 'must be offline or openai'), 'offline'),
	KANTERA_EMBEDDINGS_BASE_URL: v.optional(Url),
	KANTERA_EMBEDDINGS_API_KEY: v.optional(v.string()),
	KANTERA_EMBEDDINGS_MODEL: v.optional(NonEmpty),
	KANTERA_EMBEDDINGS_DIMENSIONS: v.optional(PositiveInt),
	/** Sections embedded per provider call. */
	KANTERA_EMBEDDINGS_BATCH: v.optional(PositiveInt, '32'),
	/** Largest request body accepted by the JSON API, in bytes. */
	KANTERA_MAX_BODY_BYTES: v.optional(PositiveInt, '1048576'),
	/**
	 * Milliseconds between keep-alive comments on a quiet event stream (0: none). Proxies close a stream
	 * that stays silent too long; tests turn them off to prove the server itself never does.
	 */
	KANTERA_SSE_KEEPALIVE_MS: v.optional(NonNegativeInt, '7500'),
	...LLM_ENV_ENTRIES,
	...ENGINE_ENV_ENTRIES,
	...IMAGES_ENV_ENTRIES,
	...PRESETS_ENV_ENTRIES,
	...AUTH_ENV_ENTRIES,
	...TIERS_ENV_ENTRIES,
	...DEPLOY_ENV_ENTRIES,
	...OPS_ENV_ENTRIES,
	...IMAGE_STORE_ENV_ENTRIES
});

export type EmbeddingsConfig =
	| { provider: 'offline'; dimensions: number; batch: number }
	| { provider: 'openai'; baseUrl: string; apiKey: string | undefined; model: string; dimensions: number | undefined; batch: number };

export interface Config {
	dataDir: string;
	controlDb: { url: string; authToken: string | undefined };
	sessionDb: { urlTemplate: string; authToken: string | undefined; cacheSize: number };
	auth: { allowSignup: boolean; sessionDays: number; localAccounts: boolean; providers: SignInProvidersConfig };
	tiers: TiersConfig;
	embeddings: EmbeddingsConfig;
	maxBodyBytes: number;
	/** Keep-alive comments on quiet event streams, every this many ms; 0: none. */
	sseKeepAliveMs: number;
	llm: LlmConfig;
	engine: EngineConfig;
	images: ImagesConfig;
	/** Where generated images are kept: local files, or an S3-compatible bucket. */
	imageStore: ImageStoreConfig;
	presets: PresetsConfig;
	/** How background work outlives a request: a server process, or an isolate's `waitUntil` and later requests. */
	scheduler: 'process' | 'request';
	/** Turso databases per session (undefined: session databases come from the URL template alone). */
	turso: TursoConfig | undefined;
	backup: BackupConfig;
	/** The metrics endpoint's token and the log format. */
	ops: OpsConfig;
}

export class ConfigError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ConfigError';
	}
}

/** Offline embedder dimension: small enough to be cheap, large enough that hashed features rarely collide. */
export const OFFLINE_EMBEDDING_DIMENSIONS = 384;

/** Parses an environment record. Throws ConfigError naming every bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
	// Empty strings mean "unset": that is what `FOO= cmd` and most .env loaders produce.
	const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
	const result = v.safeParse(EnvSchema, cleaned);
	if (!result.success) {
		const lines = result.issues.map((issue) => {
			const key = issue.path?.map((p) => String(p.key)).join('.') ?? '(environment)';
			return `${key}: ${issue.message}`;
		});
		throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
	}
	const e = result.output;
	const dataDir = path.resolve(e.KANTERA_DATA_DIR);
	let embeddings: EmbeddingsConfig;
	if (e.KANTERA_EMBEDDINGS === 'openai') {
		if (!e.KANTERA_EMBEDDINGS_MODEL)
			throw new ConfigError('Invalid configuration:\n  KANTERA_EMBEDDINGS_MODEL: required when KANTERA_EMBEDDINGS=openai');
		embeddings = {
			provider: 'openai',
			baseUrl: e.KANTERA_EMBEDDINGS_BASE_URL ?? 'https://api.openai.com/v1',
			apiKey: e.KANTERA_EMBEDDINGS_API_KEY,
			model: e.KANTERA_EMBEDDINGS_MODEL,
			dimensions: e.KANTERA_EMBEDDINGS_DIMENSIONS,
			batch: e.KANTERA_EMBEDDINGS_BATCH
		};
	} else {
		embeddings = {
			provider: 'offline',
			dimensions: e.KANTERA_EMBEDDINGS_DIMENSIONS ?? OFFLINE_EMBEDDING_DIMENSIONS,
			batch: e.KANTERA_EMBEDDINGS_BATCH
		};
	}
	const llm = llmConfig(e);
	if ('error' in llm) throw new ConfigError(`Invalid configuration:\n  ${llm.error}`);
	const engine = engineConfig(e);
	if ('error' in engine) throw new ConfigError(`Invalid configuration:\n  ${engine.error}`);
	const images = imagesConfig(e);
	if ('error' in images) throw new ConfigError(`Invalid configuration:\n  ${images.error}`);
	const signIn = authProvidersConfig(e);
	if ('error' in signIn) throw new ConfigError(`Invalid configuration:\n  ${signIn.error}`);
	const tiers = freeModelConfig(e, llm);
	if ('error' in tiers) throw new ConfigError(`Invalid configuration:\n  ${tiers.error}`);
	const deploy = deployConfig(e);
	if ('error' in deploy) throw new ConfigError(`Invalid configuration:\n  ${deploy.error}`);
	const imageStore = imageStoreConfig(e);
	if ('error' in imageStore) throw new ConfigError(`Invalid configuration:\n  ${imageStore.error}`);
	const sessionTemplate =
		e.KANTERA_SESSION_DB_URL ?? (deploy.turso ? 'libsql://{hostname}' : `file:${path.join(dataDir, 'sessions', '{id}.db')}`);
	if (!deploy.turso && !sessionTemplate.includes('{id}'))
		throw new ConfigError(
			'Invalid configuration:\n  KANTERA_SESSION_DB_URL: must contain {id} ({hostname} only exists with KANTERA_TURSO_*)'
		);
	return Object.freeze({
		dataDir,
		controlDb: { url: e.KANTERA_CONTROL_DB_URL ?? `file:${path.join(dataDir, 'control.db')}`, authToken: e.KANTERA_CONTROL_DB_AUTH_TOKEN },
		sessionDb: {
			urlTemplate: sessionTemplate,
			authToken: e.KANTERA_SESSION_DB_AUTH_TOKEN,
			cacheSize: e.KANTERA_SESSION_DB_CACHE
		},
		auth: {
			allowSignup: e.KANTERA_ALLOW_SIGNUP,
			sessionDays: e.KANTERA_AUTH_SESSION_DAYS,
			localAccounts: signIn.localAccounts,
			providers: signIn.providers
		},
		tiers,
		embeddings,
		maxBodyBytes: e.KANTERA_MAX_BODY_BYTES,
		sseKeepAliveMs: e.KANTERA_SSE_KEEPALIVE_MS,
		llm,
		engine,
		images,
		imageStore,
		presets: presetsConfig(e),
		scheduler: deploy.scheduler,
		turso: deploy.turso,
		backup: { ...deploy.backup, dir: deploy.backup.dir === undefined ? undefined : path.resolve(deploy.backup.dir) },
		ops: opsConfig(e)
	});
}

let cached: Config | undefined;

/** The process-wide configuration, parsed from process.env on first use. */
export function config(): Config {
	cached ??= parseConfig(process.env);
	return cached;
}
