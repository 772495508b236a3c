import { createToken, expiryFromDays, getUserByName } from '../../auth';
import type { Command } from '../command';

const DEFAULT_TOKEN_NAME = 'cli';

const create: Command = {
	name: ['token', 'create'],
	summary: 'create a personal API token for a user; prints it (once) as the last word',
	usage: '--user N [--name LABEL] [--expires-days D]',
	details: [
		'--user N            the account the token acts as',
		`--name LABEL        a label to recognise the token by (default "${DEFAULT_TOKEN_NAME}")`,
		'--expires-days D    expire after D days (default: never)',
		'Use it as  Authorization: Bearer <token>.  Only a hash is stored: it cannot be shown again.'
	],
	options: { user: { type: 'string' }, name: { type: 'string' }, 'expires-days': { type: 'string' } },
	async run(ctx, args) {
		const app = await ctx.app();
		const user = await getUserByName(app, args.requiredString('user'));
		const expiresAt = expiryFromDays(args.string('expires-days'));
		const created = await createToken(app, user.id, args.string('name') ?? DEFAULT_TOKEN_NAME, { expiresAt });
		const expiry = created.expiresAt ? `expires ${created.expiresAt.toISOString()}` : 'never expires';
		ctx.note(`Created token "${created.name}" for ${user.name} (${expiry}). Store it now; it is shown only once.`);
		ctx.out(created.token);
	}
};

export const tokenCommands: readonly Command[] = [create];
