/** The maintenance CLI (run by bin/kantera.js). Commands are registered in `commands/index.ts`. */
export { main } from './main';
