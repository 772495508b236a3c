/** Help text, generated from the command table so it cannot drift from what the parser accepts. */
import { commandId, type Command } from './command';

export function commandUsage(c: Command): string {
	return `kantera ${commandId(c)} ${c.usage}`.trimEnd();
}

export function commandHelp(c: Command): string {
	const lines = [`Usage: ${commandUsage(c)}`, '', `${c.summary[0]?.toUpperCase() ?? ''}${c.summary.slice(1)}.`];
	if (c.details?.length) lines.push('', ...c.details.map((d) => `  ${d}`));
	return lines.join('\n');
}

export function generalHelp(commands: readonly Command[], group?: string): string {
	const shown = commands.filter((c) => !group || c.name[0] === group);
	const width = Math.max(...shown.map((c) => commandId(c).length));
	return [
		'Usage: kantera <command> [options]',
		'',
		'Commands:',
		...shown.map((c) => `  ${commandId(c).padEnd(width)}  ${c.summary}`),
		`  ${'help'.padEnd(width)}  show this help; "kantera help <command>" for one command`,
		'',
		'The CLI uses the same databases as the app: set KANTERA_DATA_DIR (default ./data) and the other',
		'KANTERA_* variables as you do for the server.',
		'Exit codes: 0 success, 1 failure (validation, not found, database), 2 usage error.'
	].join('\n');
}
