/** `doctor`: what is configured, and whether each part of the deployment answers. */
import { runDoctor, type Status } from '../doctor';
import { CliError, UsageError } from '../errors';
import type { Command } from '../command';

/** Per network probe: long enough for a distant API, short enough that an offline check ends quickly. */
const DEFAULT_TIMEOUT_MS = 3_000;
const LABEL: Record<Status, string> = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL', info: '    ' };

const doctor: Command = {
	name: ['doctor'],
	summary: 'check the configuration, databases (reachability, versions, pending migrations, orphans), image store, providers and backups',
	usage: '[--json] [--timeout-ms N] [--repair]',
	details: [
		'--json              one JSON array of {area, status, message} instead of text',
		`--timeout-ms N      time limit of each network check (default ${DEFAULT_TIMEOUT_MS})`,
		'--repair            retry pending deletions of Turso databases now (otherwise the server does it every 10 minutes), and',
		'                    remove the database files and image folders nothing refers to, listing each one first',
		'Without --repair it reads only (no migration is applied). Image folders of sessions and preset covers (official',
		'worlds included) and database files of sessions and save slots are never proposed for removal.',
		'Exit code 1 when any check FAILs.'
	],
	options: { json: { type: 'boolean' }, 'timeout-ms': { type: 'string' }, repair: { type: 'boolean' } },
	async run(ctx, args) {
		const raw = args.string('timeout-ms');
		const timeoutMs = raw === undefined ? DEFAULT_TIMEOUT_MS : Number(raw);
		if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
			throw new UsageError('--timeout-ms must be a whole number of milliseconds', 'doctor');
		const findings = await runDoctor(ctx.io.env, { timeoutMs, repair: args.flag('repair') });
		if (args.flag('json')) ctx.out(JSON.stringify(findings));
		else {
			const width = Math.max(...findings.map((f) => f.area.length));
			for (const f of findings) ctx.out(`${LABEL[f.status]}  ${f.area.padEnd(width)}  ${f.message}`);
		}
		const failed = findings.filter((f) => f.status === 'fail').length;
		if (failed > 0) throw new CliError(`${failed} check(s) failed`);
	}
};

export const doctorCommands: readonly Command[] = [doctor];
