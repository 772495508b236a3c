import { firstAdmin, getUserByName, type AuthUser } from '../../auth';
import { startSession, listAllPlaySessions } from '../../sessions';
import { WORLD_IDS } from '../../worlds';
import type { App } from '../../app';
import { CliError } from '../errors';
import type { Command } from '../command';

/** `--owner N`, or the first admin: on a single-user server that is simply "me". */
async function resolveOwner(app: App, name: string | undefined): Promise<AuthUser> {
	if (name !== undefined) return getUserByName(app, name);
	const admin = await firstAdmin(app);
	if (!admin) throw new CliError('there are no users yet: create one first with  kantera user create --name N --password-stdin');
	return admin;
}

const create: Command = {
	name: ['sessions', 'create'],
	summary: 'create a play session; prints its id as the last word',
	usage: '--title T [--owner N] [--language ja|en] [--world W]',
	details: [
		'--title T           the session title (1–100 characters)',
		'--owner N           owning user (default: the first admin)',
		'--language ja|en    the language the game is played in (default en)',
		`--world W           start from an official world: ${WORLD_IDS.join(', ')} (default: an empty world)`
	],
	options: { title: { type: 'string' }, owner: { type: 'string' }, language: { type: 'string' }, world: { type: 'string' } },
	async run(ctx, args) {
		const app = await ctx.app();
		const owner = await resolveOwner(app, args.string('owner'));
		const { session } = await startSession(app, {
			ownerId: owner.id,
			title: args.requiredString('title'),
			language: args.string('language') ?? 'en',
			worldId: args.string('world')
		});
		ctx.out(`Created session "${session.title}" (${session.language}) for ${owner.name}: ${session.id}`);
	}
};

const list: Command = {
	name: ['sessions', 'list'],
	summary: 'list play sessions, newest first',
	usage: '[--owner N] [--json]',
	details: ['--owner N           only this user’s sessions (default: everyone’s)', '--json              one JSON array instead of a table'],
	options: { owner: { type: 'string' }, json: { type: 'boolean' } },
	async run(ctx, args) {
		const app = await ctx.app();
		const ownerName = args.string('owner');
		const owner = ownerName === undefined ? undefined : await getUserByName(app, ownerName);
		const sessions = (await listAllPlaySessions(app)).filter((s) => !owner || s.ownerId === owner.id);
		if (args.flag('json')) {
			const rows = sessions.map((s) => ({
				id: s.id,
				title: s.title,
				language: s.language,
				owner: s.ownerName,
				createdAt: s.createdAt.toISOString(),
				updatedAt: s.updatedAt.toISOString()
			}));
			ctx.out(JSON.stringify(rows));
			return;
		}
		if (sessions.length === 0) {
			ctx.note('No play sessions.');
			return;
		}
		for (const s of sessions) ctx.out([s.id, s.language, s.ownerName, s.updatedAt.toISOString(), s.title].join('\t'));
	}
};

export const sessionsCommands: readonly Command[] = [create, list];
