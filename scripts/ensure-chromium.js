#!/usr/bin/env node
// The end-to-end tests drive Debian's Chromium (the `chromium` package): a test tool's own browser
// download cannot work on machines that only reach package registries. Installs it when missing and
// we are root; otherwise says exactly what to run. A Japanese font (`fonts-noto-cjk`) comes with it:
// without one every Japanese screen is drawn as empty boxes, so the screenshots of the Japanese UI
// (and the line breaking and layouts the tests look at) would show nothing true.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** True when fontconfig knows a font that covers Japanese (fc-list comes with Chromium's fontconfig). */
function hasJapaneseFont() {
	try {
		return execSync('fc-list :lang=ja family', { encoding: 'utf8' }).trim() !== '';
	} catch {
		return false;
	}
}

const missing = [];
if (!existsSync(CHROMIUM)) {
	if (process.env.CHROMIUM_PATH) {
		console.error(`ensure-chromium: CHROMIUM_PATH=${CHROMIUM} does not exist.`);
		process.exit(1);
	}
	missing.push('chromium');
}
const debian = process.platform === 'linux' && existsSync('/usr/bin/apt-get');
if (debian && !hasJapaneseFont()) missing.push('fonts-noto-cjk');
if (missing.length === 0) process.exit(0);

const INSTALL = `apt-get update && apt-get install -y ${missing.join(' ')}`;
if (!debian) {
	console.error(`ensure-chromium: ${CHROMIUM} is missing. Install Chromium and set CHROMIUM_PATH to its executable.`);
	process.exit(1);
}
if (process.getuid?.() !== 0) {
	console.error(
		`ensure-chromium: ${missing.join(' and ')} missing. Install them, then run the tests again:\n\n  sudo sh -c '${INSTALL}'\n`
	);
	// Without the font the tests still run (Japanese reads as boxes); without the browser they cannot.
	process.exit(missing.includes('chromium') ? 1 : 0);
}
console.log(`ensure-chromium: installing ${missing.join(' and ')} from Debian's packages…`);
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
