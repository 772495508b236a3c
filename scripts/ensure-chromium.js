#!/usr/bin/env node
// The end-to-end tests drive Debian's Chromium (the `chromium` package): a test tool's own browser
// download cannot work on machines that only reach package registries. Installs it when missing and
// we are root; otherwise says exactly what to run.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const INSTALL = 'apt-get update && apt-get install -y chromium';

if (existsSync(CHROMIUM)) process.exit(0);

if (process.env.CHROMIUM_PATH) {
	console.error(`ensure-chromium: CHROMIUM_PATH=${CHROMIUM} does not exist.`);
	process.exit(1);
}
if (process.platform !== 'linux' || !existsSync('/usr/bin/apt-get')) {
	console.error(`ensure-chromium: ${CHROMIUM} is missing. Install Chromium and set CHROMIUM_PATH to its executable.`);
	process.exit(1);
}
if (process.getuid?.() !== 0) {
	console.error(
		`ensure-chromium: ${CHROMIUM} is missing. Install Debian's Chromium, then run the tests again:\n\n  sudo sh -c '${INSTALL}'\n`
	);
	process.exit(1);
}
console.log(`ensure-chromium: ${CHROMIUM} is missing; installing Debian's chromium package…`);
try {
	execSync(INSTALL, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
} catch {
	console.error(`ensure-chromium: "${INSTALL}" failed; see the output above.`);
	process.exit(1);
}
if (!existsSync(CHROMIUM)) {
	console.error(`ensure-chromium: the chromium package is installed but ${CHROMIUM} is still missing.`);
	process.exit(1);
}
