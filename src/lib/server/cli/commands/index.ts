/**
 * The command table. To add commands, write a module in this folder exporting `Command[]` and spread
 * it into COMMANDS below — nothing else needs to change (help, parsing and exit codes come for free).
 *
 * For example, `records import` / `records search` go in `commands/records.ts`:
 *     export const recordsCommands: readonly Command[] = [importCommand, searchCommand];
 * and are registered here with `...recordsCommands`.
 */
import type { Command } from '../command';
import { userCommands } from './user';
import { tokenCommands } from './token';
import { sessionsCommands } from './sessions';
import { recordsCommands } from './records';
import { backupCommands } from './backup';
import { doctorCommands } from './doctor';

export const COMMANDS: readonly Command[] = [
	...userCommands,
	...tokenCommands,
	...sessionsCommands,
	...recordsCommands,
	...backupCommands,
	...doctorCommands
];
