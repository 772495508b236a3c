/**
 * The budget guard (seed 002): meter every call, warn once per scope and period at its threshold,
 * and at its hard limit stop BEFORE the next call. Work already paid for is never thrown away: the
 * guard only ever refuses to start something new.
 *
 * The guard is pure bookkeeping over amounts the caller loads (from ledgers) and persists (warnings);
 * limits are injected, never defined here.
 */

export type ScopeName = 'turn' | 'session' | 'user_day' | 'global_month';

/** What a scope counts: money (micro-dollars) or LLM calls (tool rounds in a turn). */
export type Unit = 'micros' | 'calls';

interface ScopeLimit {
	scope: ScopeName;
	unit: Unit;
	/** Hard limit: no new call starts once `spent >= limit`. */
	limit?: number;
	/** Warning threshold: crossing it fires one warning per period. */
	warnAt?: number;
}

export interface ScopeState extends ScopeLimit {
	/** Period key (e.g. `2026-12-02` for a user's day); a warning fires once per (scope, period). */
	period: string;
	spent: number;
	warned: boolean;
}

export interface BudgetWarning {
	scope: ScopeName;
	unit: Unit;
	period: string;
	spent: number;
	warnAt: number;
	limit: number | undefined;
}

export class BudgetExceededError extends Error {
	constructor(
		readonly scope: ScopeName,
		readonly unit: Unit,
		readonly spent: number,
		readonly limit: number
	) {
		super(`budget limit reached for ${scope}: ${formatAmount(unit, spent)} spent of ${formatAmount(unit, limit)}`);
		this.name = 'BudgetExceededError';
	}
}

function formatAmount(unit: Unit, n: number): string {
	return unit === 'micros' ? `$${(n / 1_000_000).toFixed(6)}` : `${n} call${n === 1 ? '' : 's'}`;
}

export class BudgetGuard {
	private readonly scopes: ScopeState[];

	constructor(scopes: readonly ScopeState[]) {
		this.scopes = scopes.map((s) => ({ ...s }));
	}

	/** Throws BudgetExceededError if any scope has reached its limit. Call before every LLM call. */
	check(): void {
		for (const s of this.scopes) {
			if (s.limit !== undefined && s.spent >= s.limit) throw new BudgetExceededError(s.scope, s.unit, s.spent, s.limit);
		}
	}

	/**
	 * Starts the count of the turn's calls (its round cap) over: each part of a checkpoint written in parts is a
	 * tool loop of its own. Money is never counted over.
	 */
	newRounds(): void {
		for (const s of this.scopes) if (s.scope === 'turn' && s.unit === 'calls') s.spent = 0;
	}

	/** Whether the next call may start (the non-throwing form of `check`). */
	exceeded(): BudgetExceededError | undefined {
		try {
			this.check();
			return undefined;
		} catch (err) {
			if (err instanceof BudgetExceededError) return err;
			throw err;
		}
	}

	/**
	 * Records one finished call: `micros` of money and one call. Returns the warnings that fire now
	 * (each scope warns at most once per period). Never throws: the call is already paid for.
	 */
	record(micros: number): BudgetWarning[] {
		const fired: BudgetWarning[] = [];
		for (const s of this.scopes) {
			s.spent += s.unit === 'micros' ? micros : 1;
			if (s.warnAt !== undefined && !s.warned && s.spent >= s.warnAt) {
				s.warned = true;
				fired.push({ scope: s.scope, unit: s.unit, period: s.period, spent: s.spent, warnAt: s.warnAt, limit: s.limit });
			}
		}
		return fired;
	}

	/**
	 * Takes newer totals for scopes other turns also spend in (read from the control database just
	 * now), so checks and warnings see their spending too. A total never moves backwards.
	 */
	refresh(totals: Partial<Record<ScopeName, number>>): void {
		for (const s of this.scopes) {
			const total = totals[s.scope];
			if (s.unit === 'micros' && total !== undefined && total > s.spent) s.spent = total;
		}
	}

	snapshot(): readonly ScopeState[] {
		return this.scopes.map((s) => ({ ...s }));
	}
}
