/**
 * What a CLI command is. Each command module exports a list of these; `commands/index.ts` is the table.
 */
import type { ParseArgsConfig } from 'node:util';
import type { App } from '../app';
import { UsageError } from './errors';

/** The process's streams and environment, passed in so tests can run `main` in-process too. */
export interface CliIO {
	stdin: NodeJS.ReadableStream & { isTTY?: boolean };
	stdout: { write(chunk: string): unknown };
	stderr: { write(chunk: string): unknown };
	env: Record<string, string | undefined>;
}

export interface CommandContext {
	io: CliIO;
	/** The app (databases) built from the environment, opened on first call and closed by `main`. */
	app(): Promise<App>;
	/** One line to stdout. Results go here; anything a script parses should be the last word. */
	out(line: string): void;
	/** One line to stderr: progress and hints that must not pollute stdout. */
	note(line: string): void;
}

/** Parsed options of one invocation, read through checked accessors (no casts on argv). */
export class CommandArgs {
	constructor(
		private readonly command: string,
		private readonly values: Record<string, unknown>,
		readonly positionals: readonly string[]
	) {}

	string(name: string): string | undefined {
		const value = this.values[name];
		return typeof value === 'string' ? value : undefined;
	}

	requiredString(name: string): string {
		const value = this.string(name);
		if (value === undefined || value.trim() === '') throw new UsageError(`missing --${name}`, this.command);
		return value;
	}

	flag(name: string): boolean {
		return this.values[name] === true;
	}
}

export interface Command {
	/** Two words, the group and the verb (`['sessions', 'create']`), or one for an operation of its own (`['doctor']`). */
	name: readonly [group: string, verb: string] | readonly [command: string];
	summary: string;
	/** Option synopsis shown in help, e.g. `--title T [--owner N]`. */
	usage: string;
	/** Longer help: one line per option. */
	details?: readonly string[];
	options: CommandOptions;
	/** Names of the positional arguments the command takes, in order (none when absent). */
	positionals?: readonly string[];
	run(ctx: CommandContext, args: CommandArgs): Promise<void>;
}

/** node:util does not export the options type by name; take it from the config it belongs to. */
type CommandOptions = NonNullable<ParseArgsConfig['options']>;

export const commandId = (c: Command) => c.name.join(' ');
