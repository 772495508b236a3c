/**
 * Files nothing refers to, reported the same way whatever they are: listed in full before anything is
 * removed, and removed only with --repair. The callers decide what is stray from every reference the
 * databases hold (references.ts), so a listed name is one no session, save slot or cover uses.
 */
import type { Finding } from './finding';
import { reason } from './probe';

/** Names shown in a report without --repair; --repair lists every one it removes. */
const LISTED = 10;

export interface Strays {
	area: string;
	/** What the names are, after their count: "image folder(s) no session or cover refers to". */
	what: string;
	names: string[];
	repair: boolean;
	remove: (name: string) => Promise<void>;
}

export async function reportStrays(s: Strays): Promise<Finding[]> {
	const { area, what, names } = s;
	if (names.length === 0) return [];
	if (!s.repair) {
		const more = names.length > LISTED ? `, and ${names.length - LISTED} more` : '';
		return [
			{
				area,
				status: 'warn',
				message: `${names.length} ${what}: ${names.slice(0, LISTED).join(', ')}${more} (kantera doctor --repair lists and removes them)`
			}
		];
	}
	const out: Finding[] = [{ area, status: 'info', message: `repair: removing ${names.length} ${what}: ${names.join(', ')}` }];
	const failed: string[] = [];
	for (const name of names) await s.remove(name).catch((err: unknown) => failed.push(`${name} (${reason(err)})`));
	out.push(
		failed.length
			? {
					area,
					status: 'fail',
					message: `repair: removed ${names.length - failed.length} of ${names.length}; failed: ${failed.join('; ')}`
				}
			: { area, status: 'ok', message: `repair: removed ${names.length}` }
	);
	return out;
}
