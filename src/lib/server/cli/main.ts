/**
 * The `kantera` maintenance CLI: `kantera <group> <verb> [--options]`. Runs the same server code as the
 * app, against the databases the environment points at.
 */
import { parseArgs } from 'node:util';
import { createApp, type App } from '../app';
import { parseConfig, ConfigError } from '../config';
import { AuthError } from '../auth';
import { PlaySessionError } from '../sessions';
import { COMMANDS } from './commands';
import { CommandArgs, commandId, type CliIO, type Command, type CommandContext } from './command';
import { CliError, UsageError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './errors';
import { commandHelp, commandUsage, generalHelp } from './help';

const HELP_WORDS = new Set(['help', '--help', '-h']);

function find(commands: readonly Command[], group: string | undefined, verb: string | undefined): Command | undefined {
	return (
		commands.find((c) => c.name[0] === group && c.name[1] === verb) ?? commands.find((c) => c.name.length === 1 && c.name[0] === group)
	);
}

/** node:util parseArgs reports bad options as TypeErrors with ERR_PARSE_ARGS_* codes. */
function isParseArgsError(err: unknown): err is Error {
	return err instanceof Error && 'code' in err && typeof err.code === 'string' && err.code.startsWith('ERR_PARSE_ARGS');
}

/** Errors whose message is meant for the operator as is. */
function isExpected(err: unknown): err is Error {
	return err instanceof CliError || err instanceof AuthError || err instanceof PlaySessionError || err instanceof ConfigError;
}

export async function main(argv: readonly string[], io: CliIO, commands: readonly Command[] = COMMANDS): Promise<number> {
	const print = (stream: CliIO['stdout'], text: string) => stream.write(text.endsWith('\n') ? text : `${text}\n`);
	const [group, verb, ...rest] = argv;

	if (group === undefined) {
		print(io.stderr, generalHelp(commands));
		return EXIT_USAGE;
	}
	if (HELP_WORDS.has(group)) {
		const target = find(commands, verb, rest[0]);
		if (target) print(io.stdout, commandHelp(target));
		else if (verb && !commands.some((c) => c.name[0] === verb)) {
			print(io.stderr, `kantera: unknown command "${[verb, ...rest].join(' ')}"\n\n${generalHelp(commands)}`);
			return EXIT_USAGE;
		} else print(io.stdout, generalHelp(commands, verb));
		return EXIT_OK;
	}

	const command = find(commands, group, verb);
	// A one-word command's options start right after it.
	const args = command?.name.length === 1 ? [verb, ...rest].filter((a) => a !== undefined) : rest;
	if (!command) {
		const known = commands.some((c) => c.name[0] === group);
		const what =
			known && verb && !verb.startsWith('-')
				? `unknown command "${group} ${verb}"`
				: known
					? `"${group}" needs a subcommand`
					: `unknown command "${group}"`;
		print(io.stderr, `kantera: ${what}\n\n${generalHelp(commands, known ? group : undefined)}`);
		return EXIT_USAGE;
	}
	if (args.some((a) => a === '--help' || a === '-h')) {
		print(io.stdout, commandHelp(command));
		return EXIT_OK;
	}

	let app: Promise<App> | undefined;
	const ctx: CommandContext = {
		io,
		// No background upkeep (Turso sweeper, scheduled backups) in a one-off command: the server does that.
		app: () => (app ??= createApp(parseConfig(io.env), { background: false })),
		out: (line) => print(io.stdout, line),
		note: (line) => print(io.stderr, line)
	};
	try {
		let parsed;
		try {
			parsed = parseArgs({ args: [...args], options: command.options, strict: true, allowPositionals: command.positionals !== undefined });
		} catch (err) {
			if (isParseArgsError(err)) throw new UsageError(err.message, commandId(command));
			throw err;
		}
		const values: Record<string, unknown> = parsed.values;
		await command.run(ctx, new CommandArgs(commandId(command), values, parsed.positionals));
		return EXIT_OK;
	} catch (err) {
		if (err instanceof UsageError) {
			const cmd = commands.find((c) => commandId(c) === err.command) ?? command;
			print(io.stderr, `kantera: ${err.message}\nUsage: ${commandUsage(cmd)}\nSee "kantera help ${commandId(cmd)}".`);
			return EXIT_USAGE;
		}
		if (isExpected(err)) {
			print(io.stderr, `kantera: ${err.message}`);
			return EXIT_FAILURE;
		}
		// A bug or an unreachable database: the message helps, the arguments (possibly secret) are not echoed.
		print(io.stderr, `kantera: unexpected error: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`);
		return EXIT_FAILURE;
	} finally {
		if (app) await (await app.catch(() => undefined))?.close();
	}
}
