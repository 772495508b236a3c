import { describe, it, expect } from 'vitest';
import { BudgetGuard, BudgetExceededError, type ScopeState, type BudgetWarning } from '../../../src/lib/server/budget';

function scope(over: Partial<ScopeState> = {}): ScopeState {
	return { scope: 'session', unit: 'micros', period: 'all', spent: 0, warned: false, ...over };
}

/** Seed 002's batch: calls until the guard refuses, keeping every finished result. */
function runBatch(guard: BudgetGuard, calls: number, costEach: number) {
	const results: number[] = [];
	const warnings: BudgetWarning[][] = [];
	let stoppedBy: BudgetExceededError | undefined;
	for (let i = 0; i < calls; i++) {
		stoppedBy = guard.exceeded();
		if (stoppedBy) break;
		results.push(i);
		warnings.push(guard.record(costEach));
	}
	return { results, warnings, stoppedBy };
}

describe('budget guard (seed 002)', () => {
	it('limit 50, warning 40, seven calls of 9: warns once after the fifth, stops before the seventh, keeps six', () => {
		const guard = new BudgetGuard([scope({ limit: 50, warnAt: 40 })]);
		const { results, warnings, stoppedBy } = runBatch(guard, 7, 9);
		expect(results).toHaveLength(6);
		expect(warnings.map((w) => w.length)).toEqual([0, 0, 0, 0, 1, 0]);
		expect(warnings[4]?.[0]).toMatchObject({ scope: 'session', spent: 45, warnAt: 40 });
		expect(guard.snapshot()[0]?.spent).toBe(54);
		expect(stoppedBy).toBeInstanceOf(BudgetExceededError);
		expect(stoppedBy?.spent).toBe(54);
		expect(stoppedBy?.limit).toBe(50);
	});

	it('below the limit it changes nothing about the results', () => {
		const guard = new BudgetGuard([scope({ limit: 1000, warnAt: 900 })]);
		const { results, warnings, stoppedBy } = runBatch(guard, 7, 9);
		expect(results).toEqual([0, 1, 2, 3, 4, 5, 6]);
		expect(warnings.flat()).toEqual([]);
		expect(stoppedBy).toBeUndefined();
	});

	it('a scope already warned in this period does not warn again', () => {
		const guard = new BudgetGuard([scope({ spent: 41, warnAt: 40, warned: true })]);
		expect(guard.record(5)).toEqual([]);
	});

	it('a scope already at its limit refuses the first call', () => {
		const guard = new BudgetGuard([scope({ spent: 50, limit: 50 })]);
		expect(() => guard.check()).toThrow(BudgetExceededError);
	});

	it('counts calls for call-based scopes and names the scope that stopped', () => {
		const guard = new BudgetGuard([scope({ scope: 'turn', unit: 'calls', limit: 3 }), scope({ scope: 'user_day', limit: 1_000_000 })]);
		const { results, stoppedBy } = runBatch(guard, 10, 1);
		expect(results).toHaveLength(3);
		expect(stoppedBy?.scope).toBe('turn');
		expect(stoppedBy?.message).toMatch(/turn: 3 calls spent of 3 calls/);
	});

	it('without limits it never stops', () => {
		const guard = new BudgetGuard([scope()]);
		expect(runBatch(guard, 100, 1_000_000).results).toHaveLength(100);
	});
});
