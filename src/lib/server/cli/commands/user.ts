import * as v from 'valibot';
import { createUser, getUserByName } from '../../auth';
import { OPERATOR, adminDeleteAccount, adminPasswordReset, adminRevokeSignIns, adminSetTier, adminSuspend } from '../../api';
import { TierSchema } from '../../../types/account';
import { readSecretFromStdin } from '../stdin';
import { UsageError } from '../errors';
import type { Command, CommandArgs, CommandContext } from '../command';

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
		await adminSetTier(app, OPERATOR, user.id, tier.output);
		ctx.out(`${user.name} is now on the ${tier.output} tier`);
	}
};

/** The one account a command names (`user <command> NAME`), and the app it was found in. */
async function namedAccount(ctx: CommandContext, args: CommandArgs, command: string) {
	const [userName, ...extra] = args.positionals;
	if (userName === undefined || extra.length > 0)
		throw new UsageError(`give one account name, e.g. user ${command} alice`, `user ${command}`);
	const app = await ctx.app();
	return { app, user: await getUserByName(app, userName) };
}

/**
 * Account acts an admin has on /admin/users, for the operator: the page refuses acting on your own account, so a
 * server's only admin is suspended, reset or deleted from here. Each is written to the audit log as the operator.
 */
function accountAct(name: 'suspend' | 'unsuspend' | 'sign-out', summary: string, act: typeof adminRevokeSignIns, done: string): Command {
	return {
		name: ['user', name],
		summary,
		usage: 'NAME',
		details: ['NAME                the account name'],
		options: {},
		positionals: ['name'],
		async run(ctx, args) {
			const { app, user: named } = await namedAccount(ctx, args, name);
			const user = await act(app, OPERATOR, named.id);
			ctx.out(`${user.name} ${done}`);
		}
	};
}

const suspend = accountAct(
	'suspend',
	'suspend an account: every sign-in and API token ends, sign-in is refused; its data is kept',
	(app, actor, id) => adminSuspend(app, actor, id, true),
	'is suspended; every sign-in and token was ended'
);
const unsuspend = accountAct(
	'unsuspend',
	'lift a suspension (the account signs in again)',
	(app, actor, id) => adminSuspend(app, actor, id, false),
	'may sign in again'
);
const signOut = accountAct('sign-out', 'end every sign-in and API token of an account', adminRevokeSignIns, 'is signed out everywhere');

const resetPassword: Command = {
	name: ['user', 'reset-password'],
	summary: 'print a one-time password-reset link path for an account (valid 24 h; the newest one only)',
	usage: 'NAME',
	details: [
		'NAME                the account name',
		'Prints /reset-password/<token>: put it after your server’s address and give it to the account’s owner. There is no mail.'
	],
	options: {},
	positionals: ['name'],
	async run(ctx, args) {
		const { app, user: named } = await namedAccount(ctx, args, 'reset-password');
		const { user, path, expiresAt } = await adminPasswordReset(app, OPERATOR, named.id);
		ctx.out(`Password-reset link for ${user.name}, valid until ${expiresAt.toISOString()}: ${path}`);
	}
};

const deleteAccount: Command = {
	name: ['user', 'delete'],
	summary: 'delete an account with all its sessions and presets (cannot be undone)',
	usage: 'NAME --confirm NAME',
	details: [
		'NAME                the account name',
		'--confirm NAME      the same name again: nothing is deleted unless both agree',
		'Sessions others played from its presets keep their own copies.'
	],
	options: { confirm: { type: 'string' } },
	positionals: ['name'],
	async run(ctx, args) {
		const [userName, ...extra] = args.positionals;
		if (userName === undefined || extra.length > 0)
			throw new UsageError('give one account name, e.g. user delete alice --confirm alice', 'user delete');
		if (args.string('confirm') !== userName)
			throw new UsageError(
				`nothing deleted: repeat the name with --confirm ${userName} to delete the account and all its data`,
				'user delete'
			);
		const app = await ctx.app();
		const user = await adminDeleteAccount(app, OPERATOR, (await getUserByName(app, userName)).id);
		ctx.out(`Deleted ${user.name} with all its sessions and presets`);
	}
};

export const userCommands: readonly Command[] = [create, setTierCommand, suspend, unsuspend, signOut, resetPassword, deleteAccount];
