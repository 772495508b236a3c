import * as v from 'valibot';
import { createUser, getUserByName, setTier } from '../../auth';
import { TierSchema } from '../../../types/account';
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
			throw new UsageError(
				'the password is read from standard input: pass --password-stdin (never put a password on the command line)',
				'user create'
			);
		}
		const password = await readSecretFromStdin(ctx.io, 'user create');
		const user = await createUser(await ctx.app(), { name, password }, { viaOperator: true, admin: args.flag('admin') });
		ctx.out(`Created ${user.isAdmin ? 'admin' : 'user'} ${user.name}`);
	}
};

const setTierCommand: Command = {
	name: ['user', 'set-tier'],
	summary: "set an account's tier: free (daily turn quota, fixed model) or plus",
	usage: 'NAME free|plus',
	details: [
		'NAME                the account name',
		'free|plus           free: KANTERA_FREE_TURNS_PER_DAY turns a day on KANTERA_FREE_MODEL, no hand-made image regeneration; plus: none of those limits'
	],
	options: {},
	positionals: ['name', 'tier'],
	async run(ctx, args) {
		const [name, tierText, ...extra] = args.positionals;
		if (name === undefined || tierText === undefined || extra.length > 0)
			throw new UsageError('give the account name and the tier, e.g. user set-tier alice plus', 'user set-tier');
		const tier = v.safeParse(TierSchema, tierText);
		if (!tier.success) throw new UsageError(tier.issues[0].message, 'user set-tier');
		const app = await ctx.app();
		const user = await getUserByName(app, name);
		await setTier(app, user.id, tier.output);
		ctx.out(`${user.name} is now on the ${tier.output} tier`);
	}
};

export const userCommands: readonly Command[] = [create, setTierCommand];
