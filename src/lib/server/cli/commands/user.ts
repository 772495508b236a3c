import { createUser } from '../../auth';
import { readSecretFromStdin } from '../stdin';
import { UsageError } from '../errors';
import type { Command } from '../command';

const create: Command = {
	name: ['user', 'create'],
	summary: 'create a local account (the first one becomes admin)',
	usage: '--name N --password-stdin [--admin]',
	details: [
		'--name N            username: 3–32 letters, digits, "_", "-" or "."',
		'--password-stdin    read the password (at least 8 characters) from standard input',
		'--admin             make this account an admin (the first account always is)',
		'Works even when KANTERA_ALLOW_SIGNUP=false: operators may always create accounts.'
	],
	options: { name: { type: 'string' }, 'password-stdin': { type: 'boolean' }, admin: { type: 'boolean' } },
	async run(ctx, args) {
		const name = args.requiredString('name');
		if (!args.flag('password-stdin')) {
			throw new UsageError('the password is read from standard input: pass --password-stdin (never put a password on the command line)', 'user create');
		}
		const password = await readSecretFromStdin(ctx.io, 'user create');
		const user = await createUser(await ctx.app(), { name, password }, { viaOperator: true, admin: args.flag('admin') });
		ctx.out(`Created ${user.isAdmin ? 'admin' : 'user'} ${user.name}`);
	}
};

export const userCommands: readonly Command[] = [create];
