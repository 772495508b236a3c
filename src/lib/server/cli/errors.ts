/** CLI outcomes. Scripts tell "you called me wrong" (2) from "it did not work" (1) by the exit code. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** The command line itself is wrong: unknown command or option, missing value. Exit code 2. */
export class UsageError extends Error {
	constructor(
		message: string,
		/** The command whose usage to show after the message, e.g. "user create". */
		readonly command?: string
	) {
		super(message);
		this.name = 'UsageError';
	}
}

/** The command line was fine but the work failed for a reason the operator can fix. Exit code 1. */
export class CliError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'CliError';
	}
}
