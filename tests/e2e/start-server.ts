/**
 * Starts the built app exactly as the README tells people to — `npm start` in the checkout — with the
 * environment a fresh shell would have: none of the app's or adapter-node's variables, except the port,
 * a temporary data directory and whatever a test adds. Each server is stopped and its data removed.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Variables a shell of someone following the README would not have set. */
const SERVER_VARIABLES =
	/^(KANTERA_|OPENAI_|ANTHROPIC_)|^(ORIGIN|HOST|PORT|SOCKET_PATH|BODY_SIZE_LIMIT|IDLE_TIMEOUT|XFF_DEPTH|(PROTOCOL|HOST|PORT|ADDRESS)_HEADER)$/;
const START_TIMEOUT_MS = 60_000;
const POLL_MS = 200;
/** A graceful stop waits for open connections; after this the group is killed. */
const STOP_TIMEOUT_MS = 10_000;

export interface StartedServer {
	port: number;
	/** http://127.0.0.1:PORT */
	url: string;
	/** Everything the server printed so far. */
	output(): string;
	stop(): Promise<void>;
}

function freePort(): number {
	const script =
		"const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
	return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim());
}

function readmeEnv(extra: Record<string, string>, port: number, dataDir: string): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) if (!SERVER_VARIABLES.test(key)) env[key] = value;
	return { ...env, PORT: String(port), KANTERA_DATA_DIR: dataDir, ...extra };
}

async function waitUntilUp(url: string, child: ChildProcess, output: () => string): Promise<void> {
	const deadline = Date.now() + START_TIMEOUT_MS;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output()}`);
		try {
			if ((await fetch(`${url}/healthz`)).ok) return;
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, POLL_MS));
	}
	throw new Error(`npm start did not answer within ${START_TIMEOUT_MS} ms:\n${output()}`);
}

/** `npm start` with the README's (empty) configuration plus `extra`, in this checkout or the one at `root` (a bench's build of an older commit). */
export async function startLikeReadme(extra: Record<string, string> = {}, root = ROOT): Promise<StartedServer> {
	const port = freePort();
	const dataDir = mkdtempSync(path.join(tmpdir(), 'kantera-readme-'));
	// Its own process group, so stopping it stops npm and the node process npm started.
	const child = spawn('npm', ['start'], {
		cwd: root,
		env: readmeEnv(extra, port, dataDir),
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe']
	});
	let printed = '';
	child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const stop = async () => {
		const pid = child.pid;
		if (child.exitCode === null && pid !== undefined) {
			process.kill(-pid, 'SIGTERM');
			const timer = setTimeout(() => process.kill(-pid, 'SIGKILL'), STOP_TIMEOUT_MS);
			await exited;
			clearTimeout(timer);
		}
		rmSync(dataDir, { recursive: true, force: true });
	};
	const url = `http://127.0.0.1:${port}`;
	try {
		await waitUntilUp(url, child, () => printed);
	} catch (err) {
		await stop();
		throw err;
	}
	return { port, url, output: () => printed, stop };
}
