/** Root names of each kind's section paths: what a recall hit shows before the record's own name. */
export const PATH_ROOT = {
	state: 'State',
	journal: 'Journal',
	memory: 'Memory',
	summary: 'Summary',
	story: 'Story',
	log: 'Log'
} as const;
