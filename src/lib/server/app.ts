/**
 * Process-wide resources: configuration, the control database, the session database pool, the
 * event bus and event feeds, the embedder, the turn runner and the image job runner. Created once on
 * first use and shared by the app, the CLI and tests (which build their own with `createApp`). These
 * are resources, not request state.
 */
import { config as readConfig, ConfigError, type Config } from './config';
import { isFileUrl, openControlDb, SessionDbPool, TursoPlacement, startSweeper, type ControlDb } from './db';
import { createEmbedder, type Embedder } from './search';
import { createProvider, providerSettingsFromConfig, type LlmProvider, type ProviderName } from './llm';
import { gmToolMap, PLAYER_VISIBLE_TOOL_ACTIVITY } from './tools';
import { countTokensO200k, loadTokenizer, memoizedCounter, type TokenCounter } from './context-window';
import { sql } from 'drizzle-orm';
import { TurnRunner, turnsWaiting, hasOldNote, contextProblems, type LeaseTiming } from './turn';
import { findPlaySession, keepTurnAfterFailure, tableChanged } from './sessions';
import { EventBus, EventFeeds, type FeedTiming } from './events';
import { createImageProvider, createImageStore, ImageRunner, type ImageRunnerDeps } from './images';
import { CoverRunner, orderOfficialCovers, syncOfficialPresets, type CoverPolicy } from './presets';
import { SignInProviders } from './auth';
import { configureLog } from './ops';
import { CALL_LOG_PRUNE_EVERY_MS, pruneCallLog } from './budget';
import { createScheduler, type Scheduler } from './jobs';
import type { RetryPolicy } from './retry';
import { AsyncLocalStorage } from 'node:async_hooks';

export interface App {
	config: Config;
	control: ControlDb;
	sessions: SessionDbPool;
	bus: EventBus;
	/** One reader of the event log per session with open streams, shared by those streams. */
	feeds: EventFeeds;
	embedder: Embedder;
	runner: TurnRunner;
	/** Image generation jobs; `images.store` holds the generated images. */
	images: ImageRunner;
	/** Preset covers (the opening scene's background), drawn with the same provider and store. */
	covers: CoverRunner;
	/** The OAuth 2.0 / OpenID Connect providers people can sign in with. */
	signIn: SignInProviders;
	/** Keeps background work alive past the request: the server process, or an isolate's `waitUntil`. */
	scheduler: Scheduler;
	/**
	 * Makes sure the session's leftover work goes on: queued turns run, a turn whose runner died is
	 * marked interrupted, image jobs continue. One read finds whether anything waits, and only then are
	 * the runners woken; on an isolate host it is a visit (shared per session, see the scheduler).
	 */
	resumeSession(sessionId: string): void;
	close(): Promise<void>;
}

export interface AppOverrides {
	/** Tests inject providers with fast timeouts; production builds them from config. */
	provider?: (name: ProviderName) => LlmProvider;
	countTokens?: TokenCounter;
	/** Tests inject recording or failing image providers, a store, retry timings and a clock. */
	images?: Partial<Pick<ImageRunnerDeps, 'provider' | 'store' | 'policy' | 'now'>>;
	coverPolicy?: Partial<CoverPolicy>;
	/** Tests shorten turn leases to watch a killed runner's lease run out. */
	turnLease?: Partial<LeaseTiming>;
	/** Tests shorten the Turso Platform API retries and the sweeper's interval. */
	turso?: { retry?: RetryPolicy; sweepEveryMs?: number };
	/** Tests shorten the event feeds' poll and access-check intervals to count their reads. */
	eventFeeds?: Partial<FeedTiming>;
	/** Tests give the request-scoped scheduler a clock or a shorter resume interval; built from config otherwise. */
	scheduler?: Scheduler;
	/**
	 * The start-up writes: migrating the control database, the official worlds' rows and their covers'
	 * orders; on by default. An isolate host builds an app per request (or per session object) and does
	 * them once per isolate instead (isolate/), not on every build.
	 */
	startUp?: boolean;
	/**
	 * Background upkeep (the Turso sweeper, scheduled backups, resuming the turns a previous run left
	 * unfinished); on by default. The CLI turns it off: a one-off command must not start loops, back up
	 * on a schedule, or run (or mark interrupted) the server's turns; `kantera restore` would otherwise
	 * open and migrate session databases while it replaces them.
	 */
	background?: boolean;
}

export async function createApp(cfg: Config, overrides: AppOverrides = {}): Promise<App> {
	configureLog({ format: cfg.ops.logFormat, level: cfg.ops.logLevel });
	const counter = overrides.countTokens ?? countTokensO200k;
	// A window's exchanges and the head's entries come back in request after request: each is counted once.
	const countTokens = memoizedCounter(counter);
	const tools = gmToolMap();
	// A model whose context cannot hold the GM's rules and tools would fail every turn: say so before anything starts.
	const problems = contextProblems(cfg, tools, countTokens);
	if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
	const startUp = overrides.startUp !== false;
	const control = await openControlDb(cfg, { migrate: startUp });
	// The official worlds are read-only presets: their rows follow the shipped content.
	if (startUp) await syncOfficialPresets(control.db);
	// Turso per session: databases are created and deleted through the Platform API (and swept when a call failed).
	const turso = cfg.turso
		? new TursoPlacement({
				cfg: { sessionDb: cfg.sessionDb, turso: cfg.turso },
				control,
				...(overrides.turso?.retry ? { retry: overrides.turso.retry } : {})
			})
		: undefined;
	const background = overrides.background !== false;
	const sessions = new SessionDbPool(cfg, turso);
	const scheduler = overrides.scheduler ?? createScheduler(cfg.scheduler);
	// A job of the scheduler like the others: on an isolate host it runs from requests, not from a timer.
	const stopSweeper = turso && background ? startSweeper(turso, scheduler, overrides.turso?.sweepEveryMs) : undefined;
	const { callLogDays } = cfg.ops;
	const stopCallLogPrune =
		background && callLogDays !== undefined
			? scheduler.repeat(CALL_LOG_PRUNE_EVERY_MS, async () => {
					await pruneCallLog(control.db, callLogDays).catch((err: unknown) => {
						console.error(`[kantera] call log retention: ${err instanceof Error ? err.message : String(err)}`);
					});
				})
			: undefined;
	const bus = new EventBus();
	const feeds = new EventFeeds({ sessions, bus }, overrides.eventFeeds);
	const embedder = createEmbedder(cfg.embeddings);
	const providers = new Map<ProviderName, LlmProvider>();
	const provider =
		overrides.provider ??
		((name: ProviderName) => {
			let p = providers.get(name);
			if (!p) {
				if (!cfg.llm.configured) throw new Error(cfg.llm.reason);
				p = createProvider(providerSettingsFromConfig(cfg.llm, name));
				providers.set(name, p);
			}
			return p;
		});
	const budgetLimits = { ...cfg.engine.budget, maxToolRounds: cfg.engine.maxToolRounds };
	const images = new ImageRunner({
		sessions,
		bus,
		provider: overrides.images?.provider ?? createImageProvider(cfg.images),
		store: overrides.images?.store ?? (await createImageStore(cfg.imageStore, cfg.dataDir)),
		budget: { control, limits: budgetLimits, priceMicros: cfg.images.priceMicros },
		scheduler,
		...(overrides.images?.policy ? { policy: overrides.images.policy } : {}),
		...(overrides.images?.now ? { now: overrides.images.now } : {})
	});
	const covers = new CoverRunner({
		control,
		images: () => ({ provider: images.provider, store: images.store }),
		budget: { limits: budgetLimits, priceMicros: cfg.images.priceMicros },
		scheduler,
		...(overrides.coverPolicy ? { policy: overrides.coverPolicy } : {})
	});
	// Loaded only when scheduled: backups write to the local disk, which an isolate host does not have.
	const { cron, dir: backupDir } = cfg.backup;
	const stopBackups =
		background && cron && backupDir
			? (await import('./db/backup')).startBackupSchedule(
					{ config: cfg, control, sessions, images },
					{ ...cfg.backup, cron, dir: backupDir },
					scheduler
				)
			: undefined;
	if (startUp) await orderOfficialCovers(covers);
	// The runner counts every turn's tokens: build the encoder now, while nothing is served yet, not in
	// the first turn (seconds with no answer to anyone; long enough for keep-alive connections to reset).
	if (background && cfg.llm.configured && counter === countTokensO200k) loadTokenizer();
	const runner = new TurnRunner({
		config: cfg,
		control,
		sessions,
		bus,
		embedder,
		provider,
		tools,
		visibleTools: PLAYER_VISIBLE_TOOL_ACTIVITY,
		countTokens,
		images,
		scheduler,
		uncommitted: async (sessionId, turn) => {
			const table = { control, sessions, bus };
			if (!(await keepTurnAfterFailure(table, sessionId, turn.senderId ?? turn.userId))) return;
			await tableChanged(table, await findPlaySession(table, sessionId));
		},
		...(overrides.turnLease ? { lease: overrides.turnLease } : {})
	});
	// A look before the runners: with nothing waiting, resuming costs one read of the session database
	// (and, beside it, one of the control database's note of work), not the runners' drains: several
	// round trips and a write each.
	const resumeIfWaiting = async (sessionId: string): Promise<boolean> => {
		const now = Date.now();
		const [waiting, note] = await Promise.all([
			sessions.use(sessionId, (s) =>
				s.db.get<{ turns: number; images: number }>(sql`select ${turnsWaiting(now)} as turns, ${images.waiting()} as images`)
			),
			// A note of work outliving its turns (its runner's wake-up died with an instance): the runner drops it.
			hasOldNote(control.db, sessionId, now)
		]);
		const turns = Boolean(waiting.turns) || note;
		if (turns) runner.kick(sessionId);
		if (waiting.images) images.kick(sessionId);
		return turns || Boolean(waiting.images);
	};
	scheduler.onVisit(resumeIfWaiting);
	const resumeSession = (sessionId: string) => {
		// A session this host does not run is handed to the object that does (the scheduler's visit).
		if (scheduler.mode === 'request' || !scheduler.runsHere(sessionId)) scheduler.visit(sessionId);
		else
			// Kept like the work it starts: a session's object waits for it before its alarm lets go.
			scheduler.keep(
				resumeIfWaiting(sessionId).catch((err: unknown) =>
					console.error(`[kantera] could not resume session ${sessionId}:`, err instanceof Error ? err.message : err)
				)
			);
	};
	// Turns left unfinished by a previous run (a crash, a restart): run the queued ones, end the dead ones.
	// On an isolate host the app is built inside someone's request: each session resumes when it is visited instead.
	if (background && scheduler.mode === 'process') void runner.resume();
	return {
		config: cfg,
		control,
		sessions,
		bus,
		feeds,
		embedder,
		runner,
		images,
		covers,
		signIn: new SignInProviders(cfg.auth.providers),
		scheduler,
		resumeSession,
		async close() {
			stopSweeper?.();
			stopCallLogPrune?.();
			stopBackups?.();
			scheduler.stop();
			await runner.stop();
			await covers.stop();
			await images.stop();
			await sessions.closeAll();
			control.close();
		}
	};
}

let app: Promise<App> | undefined;
/** Where the app comes from while a request runs on an isolate host (isolate/): not this process's. */
const appScope = new AsyncLocalStorage<() => Promise<App>>();

/**
 * The app of this process, built from the environment on first use; a build that failed is not kept,
 * so the next call tries again. On an isolate host, the app of the request or session object it runs for.
 * This is the server's app: with local databases it first takes its lock on the data directory
 * (db/server-lock.ts), which `kantera restore` respects.
 */
export function getApp(): Promise<App> {
	const scoped = appScope.getStore();
	if (scoped) return scoped();
	if (!app) {
		const building = (async () => {
			const cfg = readConfig();
			if (isFileUrl(cfg.controlDb.url)) (await import('./db/local-files')).holdDataDir(cfg.dataDir);
			return createApp(cfg);
		})();
		app = building;
		void building.catch(() => {
			if (app === building) app = undefined;
		});
	}
	return app;
}

/** Runs `fn` (a request on an isolate host) with `app` as what `getApp()` gives anywhere below it. */
export function withAppOf<T>(app: () => Promise<App>, fn: () => T): T {
	return appScope.run(app, fn);
}

/**
 * Installs the app `getApp()` returns (or forgets it with `undefined`). Only for tests that call route
 * handlers in-process with an app wired to the mock LLM; production builds its app from the environment.
 */
export function setAppForTests(instance: App | undefined): void {
	app = instance ? Promise.resolve(instance) : undefined;
}
