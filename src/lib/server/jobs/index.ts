/**
 * Background work: the scheduler that keeps it alive past the request (a server process, or an
 * isolate's `waitUntil`, a session's own object and its alarm), the request scope that carries `waitUntil`, and the per-session worker
 * loop the turn and image runners share.
 */
export {
	ProcessScheduler,
	RequestScheduler,
	createScheduler,
	type Scheduler,
	type SchedulerMode,
	type ResumeCounts,
	type RequestSchedulerOptions
} from './scheduler';
export { ObjectScheduler, ALARM_LEAD_MS, ALARM_HOLD_MS, type ObjectAlarm, type ObjectSchedulerOptions } from './object-scheduler';
export { inRequest, bindToRequest, currentWaitUntil, waitUntilOf, type WaitUntil } from './request-scope';
export { SessionLoop, type SessionLoopOptions } from './session-loop';
