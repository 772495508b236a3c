import { describe, it, expect } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseConfig, ConfigError } from '../../../src/lib/server/config';
import { tempDir } from '../../helpers/env';

describe('engine configuration', () => {
	it('has working defaults', () => {
		const c = parseConfig({});
		expect(c.engine.memory).toEqual({ checkpointTokens: 6000, windowExchanges: 8, windowTokens: 1500 });
		expect(c.engine.freeTurnsPerDay).toBe(50);
		expect(c.engine.turnTimeoutMs).toBe(120_000);
		expect(parseConfig({ KANTERA_TURN_TIMEOUT_S: '30' }).engine.turnTimeoutMs).toBe(30_000);
		expect(() => parseConfig({ KANTERA_TURN_TIMEOUT_S: '0' })).toThrow(/KANTERA_TURN_TIMEOUT_S: must be greater than 0/);
		expect(c.engine.budget.session).toEqual({ limit: undefined, warnAt: undefined });
	});

	it('stops start-up on a zero window or threshold, naming the variable', () => {
		expect(() => parseConfig({ KANTERA_WINDOW_EXCHANGES: '0' })).toThrow(ConfigError);
		expect(() => parseConfig({ KANTERA_WINDOW_EXCHANGES: '0' })).toThrow(/KANTERA_WINDOW_EXCHANGES: must be greater than 0/);
		expect(() => parseConfig({ KANTERA_CHECKPOINT_TOKENS: '0' })).toThrow(/KANTERA_CHECKPOINT_TOKENS/);
		expect(() => parseConfig({ KANTERA_CHECKPOINT_TOKENS: '-5' })).toThrow(/KANTERA_CHECKPOINT_TOKENS/);
		expect(() => parseConfig({ KANTERA_CHECKPOINT_TOKENS: 'lots' })).toThrow(/KANTERA_CHECKPOINT_TOKENS/);
	});

	it('reads money limits in dollars into micro-dollars', () => {
		const c = parseConfig({ KANTERA_BUDGET_SESSION_USD: '0.50', KANTERA_BUDGET_SESSION_WARN_USD: '0.4' });
		expect(c.engine.budget.session).toEqual({ limit: 500_000, warnAt: 400_000 });
		expect(() => parseConfig({ KANTERA_BUDGET_USER_DAY_USD: '$5' })).toThrow(/KANTERA_BUDGET_USER_DAY_USD/);
	});

	it('merges a validated price file over the defaults and rejects a bad one', () => {
		const d = tempDir();
		const good = path.join(d.dir, 'prices.json');
		writeFileSync(good, JSON.stringify({ 'llama3:8b': { input: 0, output: 0 }, 'gpt-4o': { input: 1, output: 1 } }));
		const c = parseConfig({ KANTERA_PRICES_FILE: good });
		expect(c.engine.prices['llama3:8b']).toEqual({ input: 0, output: 0 });
		expect(c.engine.prices['gpt-4o']).toEqual({ input: 1, output: 1 });
		expect(c.engine.prices['gpt-4.1']).toBeDefined();
		const bad = path.join(d.dir, 'bad.json');
		writeFileSync(bad, JSON.stringify({ m: { input: 'cheap', output: 1 } }));
		expect(() => parseConfig({ KANTERA_PRICES_FILE: bad })).toThrow(/KANTERA_PRICES_FILE: m.input/);
		expect(() => parseConfig({ KANTERA_PRICES_FILE: path.join(d.dir, 'missing.json') })).toThrow(/cannot read/);
		d.remove();
	});
});
