/** The maintenance CLI (run by bin/kantera.js). Commands are registered in `commands/index.ts`. */
export { main } from './main';
export { COMMANDS } from './commands';
export { CommandArgs, type Command, type CommandContext, type CliIO } from './command';
export { UsageError, CliError, EXIT_OK, EXIT_FAILURE, EXIT_USAGE } from './errors';
export { readSecretFromStdin } from './stdin';
