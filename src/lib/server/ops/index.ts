/** Operations: Prometheus metrics, the structured log lines, the request log and its ids. */
export {
	observeTurn,
	observeLlmCall,
	observeEventStream,
	scrapeMetrics,
	METRICS_CONTENT_TYPE,
	type RunnerLoad,
	type ScrapeSources,
	type TurnObservation,
	type LlmCallObservation
} from './metrics';
export { logLine, formatLine, configureLog, logSettings, type LogFields, type LogKind, type LogSettings } from './log';
export { handleRequestLog, requestIdOf, REQUEST_ID_HEADER } from './request-log';
export { metricsAccess, METRICS_PATH, type MetricsAccess } from './access';
