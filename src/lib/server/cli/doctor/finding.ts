/** What each check of `kantera doctor` reports, and the options every check is given. */
export type Status = 'ok' | 'warn' | 'fail' | 'info';

export interface Finding {
	area: string;
	status: Status;
	message: string;
}

export interface DoctorOptions {
	/** Time limit of each network probe. */
	timeoutMs: number;
	/** Retry pending Turso deletions now (the one thing the doctor may change). */
	repair: boolean;
}
