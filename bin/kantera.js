#!/usr/bin/env node
// The `kantera` maintenance CLI. It runs the server's TypeScript directly through tsx, so it always
// uses exactly the same code (and the same KANTERA_* configuration) as the app, with no build step.
import { register } from 'tsx/esm/api';

// The app's tsconfig extends SvelteKit's generated one; the server code needs none of it.
register({ tsconfig: false });
const { main } = await import('../src/lib/server/cli/main.ts');
process.exitCode = await main(process.argv.slice(2), {
	stdin: process.stdin,
	stdout: process.stdout,
	stderr: process.stderr,
	env: process.env
});
