// The project files the lint scripts read: the ones git knows, untracked ones included, ignored ones not,
// with their text. A file deleted in the work tree but still in the index is skipped.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * @param {RegExp} checked which file names to read
 * @param {string[]} [under] limit the listing to these paths
 * @returns {Generator<[string, string]>} each file's path and text
 */
export function* trackedFiles(checked, under = []) {
	const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', ...under], { encoding: 'utf8' });
	for (const file of listed.split('\0')) {
		if (!checked.test(file)) continue;
		let text;
		try {
			text = readFileSync(file, 'utf8');
		} catch {
			continue;
		}
		yield [file, text];
	}
}
