/** Runs the kantera CLI: spawned for real (tsx and all), or in-process for long tables of cases. */
import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import path from 'node:path';
import { main } from '../../src/lib/server/cli';

const BIN = path.resolve(__dirname, '../../bin/kantera.js');

export interface Run {
	code: number | null;
	stdout: string;
	stderr: string;
}

export function kantera(dataDir: string, args: string[], stdin?: string, extraEnv: Record<string, string> = {}): Promise<Run> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [BIN, ...args], {
			env: { PATH: process.env.PATH ?? '', KANTERA_DATA_DIR: dataDir, ...extraEnv },
			stdio: ['pipe', 'pipe', 'pipe']
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
		child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
		child.on('error', reject);
		child.on('close', (code) => resolve({ code, stdout, stderr }));
		child.stdin.end(stdin ?? '');
	});
}

/** The same entry point in-process, for the long tables of error cases (a spawn costs ~1 s of tsx start-up). */
export async function kanteraInProcess(
	dataDir: string,
	args: string[],
	stdin?: string,
	extraEnv: Record<string, string> = {}
): Promise<Run> {
	let stdout = '';
	let stderr = '';
	const code = await main(args, {
		stdin: Readable.from(stdin === undefined ? [] : [stdin]),
		stdout: { write: (s: string) => (stdout += s) },
		stderr: { write: (s: string) => (stderr += s) },
		env: { KANTERA_DATA_DIR: dataDir, ...extraEnv }
	});
	return { code, stdout, stderr };
}
