/**
 * What each tier may do. Free: the daily turn quota (KANTERA_FREE_TURNS_PER_DAY), the one model the operator
 * picked (KANTERA_FREE_MODEL), no hand-made image regeneration. Plus: no turn quota, any model the server
 * reaches, regeneration within the daily allowance. Both stay under every budget scope.
 */
import * as v from 'valibot';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { controlSchema, type ControlDrizzle } from '../db';
import { nextUtcDay, utcDay, type BatchPart } from '../budget';
import type { Config, FreeModel } from '../config';
import { TIERS, TierSchema, type Tier } from '../../types/account';
import type { ProviderName } from '../../types/settings';
import type { PlanDto } from '../../types/api';

const { users, usageDaily } = controlSchema;

/** Turns a user of this tier may start per UTC day; 0 means no quota (only counted). */
export function turnQuota(cfg: Pick<Config, 'engine'>, tier: Tier): number {
	return tier === 'free' ? cfg.engine.freeTurnsPerDay : 0;
}

/** The model a tier must play, or undefined when it may choose. */
export function fixedModel(cfg: Pick<Config, 'tiers'>, tier: Tier): FreeModel | undefined {
	return tier === 'free' ? cfg.tiers.freeModel : undefined;
}

function mayRegenerate(tier: Tier): boolean {
	return tier !== 'free';
}

/** A request the tier does not allow; the API answers 403 with the code. */
export class TierError extends Error {
	constructor(
		readonly code: 'MODEL_FIXED' | 'REGENERATION_OFF',
		message: string
	) {
		super(message);
		this.name = 'TierError';
	}
}

function modelFixedError(model: FreeModel): TierError {
	return new TierError(
		'MODEL_FIXED',
		`On the free tier the game master is always ${model.provider}/${model.model}; choosing another provider or model needs the plus tier.`
	);
}

/** Refuses a provider/model choice the tier does not allow. A choice equal to the fixed model passes. */
export function checkModelChoice(cfg: Pick<Config, 'tiers'>, tier: Tier, requested: { provider?: ProviderName; model?: string }): void {
	const fixed = fixedModel(cfg, tier);
	if (!fixed || (requested.provider === undefined && requested.model === undefined)) return;
	if ((requested.provider ?? fixed.provider) !== fixed.provider || (requested.model ?? fixed.model) !== fixed.model)
		throw modelFixedError(fixed);
}

export function checkRegeneration(tier: Tier): void {
	if (!mayRegenerate(tier))
		throw new TierError(
			'REGENERATION_OFF',
			'Regenerating images by hand needs the plus tier; new characters and places still get their images.'
		);
}

const TierRows = v.array(v.object({ tier: TierSchema }));

/** The read of a user's stored tier, as a batch part; undefined when there is no such account. */
export function tierPart(db: ControlDrizzle, userId: string): BatchPart<Tier | undefined> {
	return {
		items: [db.select({ tier: users.tier }).from(users).where(eq(users.id, userId))],
		read: ([rows]) => v.parse(TierRows, rows)[0]?.tier
	};
}

/**
 * A number that depends on the user's tier, as SQL that reads the tier itself: a statement can use
 * what the tier decides (e.g. the price of the model it plays) without a read of its own first.
 * `valueFor(undefined)` is for a user with no account; an undefined value is NULL.
 */
export function perTier(userId: string, valueFor: (tier: Tier | undefined) => number | undefined): SQL {
	const value = (tier: Tier | undefined) => {
		const n = valueFor(tier);
		return n === undefined ? sql`null` : sql`${n}`;
	};
	const cases = TIERS.map((tier) => sql`when ${tier} then ${value(tier)}`);
	return sql`(case (select ${users.tier} from ${users} where ${users.id} = ${userId}) ${sql.join(cases, sql` `)} else ${value(undefined)} end)`;
}

/** The LLM settings a user of this tier plays with: the stored ones, or the tier's fixed model over them. */
export function settingsForTier<S extends { provider?: ProviderName | undefined; model?: string | undefined }>(
	cfg: Pick<Config, 'tiers'>,
	stored: S,
	tier: Tier | undefined
): S {
	const fixed = tier ? fixedModel(cfg, tier) : undefined;
	return fixed ? { ...stored, ...fixed } : stored;
}

export interface TurnsToday {
	/** Null: no quota on this tier. */
	limit: number | null;
	used: number;
	left: number | null;
	resetsAt: Date;
}

export async function turnsToday(
	db: ControlDrizzle,
	cfg: Pick<Config, 'engine'>,
	userId: string,
	tier: Tier,
	now = Date.now()
): Promise<TurnsToday> {
	const [row] = await db
		.select({ turns: usageDaily.turns })
		.from(usageDaily)
		.where(and(eq(usageDaily.userId, userId), eq(usageDaily.day, utcDay(now))));
	const used = row?.turns ?? 0;
	const quota = turnQuota(cfg, tier);
	return { limit: quota === 0 ? null : quota, used, left: quota === 0 ? null : Math.max(0, quota - used), resetsAt: nextUtcDay(now) };
}

/** What the player's screens need to know about their tier. */
export async function planOf(
	db: ControlDrizzle,
	cfg: Pick<Config, 'engine' | 'tiers'>,
	user: { id: string; tier: Tier },
	now = Date.now()
): Promise<PlanDto> {
	const turns = await turnsToday(db, cfg, user.id, user.tier, now);
	const fixed = fixedModel(cfg, user.tier);
	return {
		tier: user.tier,
		modelChoice: fixed === undefined,
		...(fixed ? { fixedModel: fixed } : {}),
		regeneration: mayRegenerate(user.tier),
		turnsLimit: turns.limit,
		turnsUsed: turns.used,
		turnsLeft: turns.left,
		turnsResetAt: turns.resetsAt.toISOString()
	};
}
