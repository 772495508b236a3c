/** Reading secrets from standard input, never from argv (argv is visible to every user via `ps`). */
import { UsageError } from './errors';
import type { CliIO } from './command';

/** A password longer than this is not a password; stop reading rather than buffer a whole file. */
const MAX_STDIN_SECRET_BYTES = 4096;

/** Reads all of stdin and drops one trailing newline, as `echo` and `printf '%s\n'` add one. */
export async function readSecretFromStdin(io: CliIO, command: string): Promise<string> {
	if (io.stdin.isTTY) {
		throw new UsageError(
			`--password-stdin reads the password from a pipe, e.g.  printf '%s\\n' "$PASSWORD" | kantera ${command} …`,
			command
		);
	}
	let text = '';
	for await (const chunk of io.stdin) {
		text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
		if (Buffer.byteLength(text) > MAX_STDIN_SECRET_BYTES)
			throw new UsageError(`stdin holds more than ${MAX_STDIN_SECRET_BYTES} bytes; expected one password`, command);
	}
	return text.replace(/\r?\n$/, '');
}
