/** Operations: Prometheus metrics, the structured log lines, the request log and its ids. */
export {
	observeTurn,
	observeLlmCall,
	observeCanonGuard,
	observeEventStream,
	scrapeMetrics,
	METRICS_CONTENT_TYPE,
	type RunnerLoad
} from './metrics';
export { logLine, configureLog, logSettings } from './log';
export { handleRequestLog } from './request-log';
export { metricsAccess, METRICS_PATH } from './access';
