/**
 * The process's Prometheus metrics (prom-client, which runs unchanged under Node, Bun and Deno). The
 * counters and histograms are moved by the code paths themselves — the turn runner when a turn ends,
 * the budget's call log when an LLM call is metered, the event stream when it opens and closes — so a
 * scrape only formats them. Queue depth is read at scrape time: from the runners' memory, and one
 * count of the control database's note of sessions with turn work.
 *
 * One registry per process: every app a process builds (tests build several) adds to the same
 * counters, which is what a scrape of the process should show.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { count } from 'drizzle-orm';
import { controlSchema, type ControlDrizzle } from '../db';
import type { ProviderName } from '../../types/settings';

const registry = new Registry();

/** Turn durations: an instant mock reply up to the 120 s default deadline (and beyond, for raised deadlines). */
const TURN_BUCKETS_S = [0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300];
/** LLM calls: first-byte to whole long replies. */
const LLM_BUCKETS_S = [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120];

/** HTTP answers: a cached page up to a slow export (the time to the answer's head, not an event stream's life). */
const HTTP_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const httpSeconds = new Histogram({
	name: 'kantera_http_request_duration_seconds',
	help: 'Time to the answer’s head of an HTTP request, by method, SvelteKit route id (never the path asked for) and status.',
	labelNames: ['method', 'route', 'status'] as const,
	buckets: HTTP_BUCKETS_S,
	registers: [registry]
});

/**
 * prom-client's process metrics (CPU, resident memory, heap, event-loop lag, GC, handles) in a registry of
 * their own, started on the first scrape: they read Node's process APIs, which an isolate host lacks and
 * Bun and Deno only partly have, and the event-loop monitor is a timer that a process nobody scrapes has no
 * use for. Where they cannot be collected, a scrape shows the application's metrics alone.
 */
const processRegistry = new Registry();
let processStarted = false;

async function processMetrics(): Promise<string> {
	try {
		if (!processStarted) {
			processStarted = true;
			if (typeof process !== 'undefined' && typeof process.cpuUsage === 'function') collectDefaultMetrics({ register: processRegistry });
		}
		return await processRegistry.metrics();
	} catch (err) {
		console.warn(`[kantera] metrics: the process metrics could not be read (${err instanceof Error ? err.message : String(err)})`);
		return '';
	}
}

const turns = new Counter({
	name: 'kantera_turns_total',
	help: 'Turns finished, by kind (player, checkpoint, handoff) and how they ended (committed, failed, cancelled).',
	labelNames: ['kind', 'status'] as const,
	registers: [registry]
});
const turnSeconds = new Histogram({
	name: 'kantera_turn_duration_seconds',
	help: 'How long a turn ran, from its claim by the runner to its commit or end.',
	labelNames: ['kind', 'status'] as const,
	buckets: TURN_BUCKETS_S,
	registers: [registry]
});
const llmSeconds = new Histogram({
	name: 'kantera_llm_call_duration_seconds',
	help: 'Latency of one LLM call (a streamed request, its retries included), by provider, model and outcome (ok or failed).',
	labelNames: ['provider', 'model', 'outcome'] as const,
	buckets: LLM_BUCKETS_S,
	registers: [registry]
});
const llmTokens = new Counter({
	name: 'kantera_llm_tokens_total',
	help: 'Tokens the LLM vendors reported: type="input" (all input, cached included), "cached_input" (of which read from the prompt cache), "output".',
	labelNames: ['provider', 'model', 'type'] as const,
	registers: [registry]
});
const llmCost = new Counter({
	name: 'kantera_llm_cost_usd_total',
	help: 'What LLM calls cost, in US dollars, at the configured prices.',
	labelNames: ['provider', 'model'] as const,
	registers: [registry]
});
const canonRewrites = new Counter({
	name: 'kantera_canon_rewrites_total',
	help: 'Replies and tool calls the canon guard withdrew before the player saw them and had the GM write again.',
	registers: [registry]
});
const canonStopped = new Counter({
	name: 'kantera_canon_stopped_turns_total',
	help: 'Player turns the canon guard stopped (the GM gave a term away again after its rewrite; nothing recorded).',
	registers: [registry]
});
const sseOpen = new Gauge({
	name: 'kantera_sse_connections',
	help: 'Event streams (a session’s server-sent events) open now.',
	registers: [registry]
});
const sseOpened = new Counter({
	name: 'kantera_sse_connections_opened_total',
	help: 'Event streams opened since the process started.',
	registers: [registry]
});
const turnQueue = new Gauge({
	name: 'kantera_turn_queue_sessions',
	help: 'Sessions with a turn queued or running, in any process (the control database’s note of work).',
	registers: [registry]
});
const turnsRunning = new Gauge({
	name: 'kantera_turns_running',
	help: 'Turns this process is running now.',
	registers: [registry]
});
const imageQueue = new Gauge({
	name: 'kantera_image_queue_sessions',
	help: 'Sessions whose image jobs this process works on (state="working") or waits to retry (state="waiting").',
	labelNames: ['state'] as const,
	registers: [registry]
});
const imagesRunning = new Gauge({
	name: 'kantera_image_jobs_running',
	help: 'Image generations this process is running now.',
	registers: [registry]
});

export interface TurnObservation {
	kind: string;
	status: string;
	durationMs: number;
}

/** Called by the turn runner when a turn has ended. */
export function observeTurn(t: TurnObservation): void {
	turns.inc({ kind: t.kind, status: t.status });
	turnSeconds.observe({ kind: t.kind, status: t.status }, t.durationMs / 1000);
}

export interface LlmCallObservation {
	provider: ProviderName;
	model: string;
	latencyMs: number;
	failure: string | undefined;
	inputTokens: number;
	cachedInputTokens: number;
	outputTokens: number;
	costMicros: number;
}

/** Called where an LLM call is metered (its row of the call log is written). */
export function observeLlmCall(c: LlmCallObservation): void {
	const labels = { provider: c.provider, model: c.model };
	llmSeconds.observe({ ...labels, outcome: c.failure === undefined ? 'ok' : 'failed' }, c.latencyMs / 1000);
	llmTokens.inc({ ...labels, type: 'input' }, c.inputTokens);
	llmTokens.inc({ ...labels, type: 'cached_input' }, c.cachedInputTokens);
	llmTokens.inc({ ...labels, type: 'output' }, c.outputTokens);
	llmCost.inc(labels, c.costMicros / 1_000_000);
}

/** Called by the turn runner when a turn's canon guard acted. */
export function observeCanonGuard(acted: { rewrites: number; stopped: boolean }): void {
	canonRewrites.inc(acted.rewrites);
	if (acted.stopped) canonStopped.inc();
}

/** Called by the request log when an answer's head is ready; `route` null is a request no route matched. */
export function observeHttpRequest(method: string, route: string | null, status: number, durationMs: number): void {
	httpSeconds.observe({ method, route: route ?? 'unmatched', status: String(status) }, durationMs / 1000);
}

/** Called by the event stream when it opens; the function it returns when it closes (once). */
export function observeEventStream(): () => void {
	sseOpen.inc();
	sseOpened.inc();
	let open = true;
	return () => {
		if (!open) return;
		open = false;
		sseOpen.dec();
	};
}

/** What a runner has in hand now, read at scrape time. */
export interface RunnerLoad {
	/** Sessions being worked on. */
	working: number;
	/** Sessions waiting for a timer (a retry's backoff, another runner's lease). */
	waiting: number;
	/** Calls (turns, image generations) running now. */
	running: number;
}

export interface ScrapeSources {
	control: ControlDrizzle;
	turns: { load(): RunnerLoad };
	images: { load(): RunnerLoad };
}

/** The exposition's content type (Prometheus text format 0.0.4). */
export const METRICS_CONTENT_TYPE = registry.contentType;

/** Reads the queue gauges, then formats every metric. */
export async function scrapeMetrics(src: ScrapeSources): Promise<string> {
	const [noted] = await src.control.select({ n: count() }).from(controlSchema.sessionWork);
	turnQueue.set(noted?.n ?? 0);
	turnsRunning.set(src.turns.load().running);
	const images = src.images.load();
	imageQueue.set({ state: 'working' }, images.working);
	imageQueue.set({ state: 'waiting' }, images.waiting);
	imagesRunning.set(images.running);
	const [app, proc] = await Promise.all([registry.metrics(), processMetrics()]);
	return proc === '' ? app : `${app}\n${proc}`;
}
