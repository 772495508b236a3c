/** Test infrastructure: a Hrana-over-HTTP server (the libSQL server protocol) over local libSQL files. */
export { startHranaServer, type HranaServer, type HranaServerOptions, type HranaStats } from './server';
