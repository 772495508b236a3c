/**
 * npm run bench:tools [-- --baseline FILE] [--save FILE]
 *
 * What the fifteen GM tools cost on every LLM call: the `tools` array exactly as each adapter puts it on
 * the wire (the real OpenAI and Anthropic SDKs, sending to the mock LLM, which records the body), counted
 * with the production o200k tokenizer, per tool and in all; and the pinned mission, which every call
 * carries too. `--save` writes what was sent to a file; `--baseline` reads such a file and prints its
 * figures beside today's, so a before/after comparison comes from one run and one tokenizer.
 * Not a test: figures go to docs/performance.md (the budget itself is tests/unit/tools/gm/budget.test.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { countTokensO200k } from '../src/lib/server/context-window';
import { collectStream, type LlmToolSpec, type ProviderName } from '../src/lib/server/llm';
import { composeMission, GM_RULES } from '../src/lib/server/session-setup';
import { GM_TOOLS } from '../src/lib/server/tools';
import { startMockLlm, type MockLlm } from '../tests/mock-llm';
import { mockProvider } from './bench-lib/setup';
import { table } from './bench-lib/stats';

const { values: args } = parseArgs({ options: { baseline: { type: 'string' }, save: { type: 'string' } } });

/** What one run captured: each wire's tools array as received, and the mission texts. */
const Snapshot = v.object({
	openai: v.array(v.looseObject({})),
	anthropic: v.array(v.looseObject({})),
	gmRules: v.string(),
	missionEn: v.string(),
	missionJa: v.string()
});
type Snapshot = v.InferOutput<typeof Snapshot>;

const tokens = (value: unknown) => countTokensO200k(typeof value === 'string' ? value : JSON.stringify(value));

/** Sends one request with the GM tools through the real adapter and returns the `tools` array of the body the mock received. */
async function toolsAsSent(mock: MockLlm, provider: Extract<ProviderName, 'openai' | 'anthropic'>): Promise<Record<string, unknown>[]> {
	const specs: LlmToolSpec[] = GM_TOOLS.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
	const baseUrl = provider === 'openai' ? mock.openaiBaseUrl : mock.anthropicBaseUrl;
	mock.reset();
	mock.script([{ text: 'ok' }]);
	await collectStream(
		mockProvider(baseUrl)(provider).stream({ model: 'bench', system: 'bench', messages: [{ role: 'user', content: 'hi' }], tools: specs })
	);
	const body = mock.requests.at(-1)?.body;
	const sent = v.parse(v.object({ tools: v.array(v.looseObject({})) }), body).tools;
	if (sent.length !== specs.length) throw new Error(`${provider}: ${sent.length} tools sent, ${specs.length} defined`);
	return sent;
}

function nameOf(tool: Record<string, unknown>): string {
	const fn = tool.function;
	const name = typeof fn === 'object' && fn !== null && 'name' in fn ? fn.name : tool.name;
	if (typeof name !== 'string') throw new Error('a tool without a name');
	return name;
}

function perTool(tools: readonly Record<string, unknown>[]): Map<string, number> {
	return new Map(tools.map((t) => [nameOf(t), tokens(t)]));
}

const fmt = (n: number | undefined) => (n === undefined ? '–' : n.toLocaleString('en'));
const pct = (after: number, before: number | undefined) => (before === undefined ? '' : `${Math.round((after / before - 1) * 100)} %`);

async function main() {
	const mock = await startMockLlm();
	let now: Snapshot;
	try {
		now = {
			openai: await toolsAsSent(mock, 'openai'),
			anthropic: await toolsAsSent(mock, 'anthropic'),
			gmRules: GM_RULES,
			missionEn: composeMission('en'),
			missionJa: composeMission('ja')
		};
	} finally {
		await mock.close();
	}
	if (args.save !== undefined) writeFileSync(args.save, `${JSON.stringify(now, null, '\t')}\n`);
	const before = args.baseline === undefined ? undefined : v.parse(Snapshot, JSON.parse(readFileSync(args.baseline, 'utf8')));

	const openai = perTool(now.openai);
	const anthropic = perTool(now.anthropic);
	const oldOpenai = before && perTool(before.openai);
	const oldAnthropic = before && perTool(before.anthropic);
	const header = before
		? ['tool', 'OpenAI before', 'OpenAI after', 'change', 'Anthropic before', 'Anthropic after', 'change']
		: ['tool', 'OpenAI', 'Anthropic'];
	const row = (name: string, o: number, a: number, ob: number | undefined, ab: number | undefined) =>
		before ? [name, fmt(ob), fmt(o), pct(o, ob), fmt(ab), fmt(a), pct(a, ab)] : [name, fmt(o), fmt(a)];
	const rows = [...openai].map(([name, o]) => row(name, o, anthropic.get(name) ?? 0, oldOpenai?.get(name), oldAnthropic?.get(name)));
	const sum = (m: Map<string, number> | undefined) => m && [...m.values()].reduce((a, b) => a + b, 0);
	rows.push(row('sum of the tools', sum(openai) ?? 0, sum(anthropic) ?? 0, sum(oldOpenai), sum(oldAnthropic)));
	rows.push(
		row(
			'tools array as sent',
			tokens(now.openai),
			tokens(now.anthropic),
			before && tokens(before.openai),
			before && tokens(before.anthropic)
		)
	);

	console.log(
		`GM tools as sent on every call, o200k tokens (JSON of the wire body's \`tools\`)${before ? `; before: ${args.baseline}` : ''}\n`
	);
	console.log(table(header, rows));

	const missionRows = (s: Snapshot) => [
		tokens(s.gmRules),
		tokens(s.missionEn),
		tokens(s.missionJa),
		tokens(s.openai) + tokens(s.missionEn)
	];
	const m = missionRows(now);
	const mb = before && missionRows(before);
	const labels = ['GM rules', 'mission (en, no world behaviour)', 'mission (ja, no world behaviour)', 'OpenAI tools + mission (en)'];
	console.log('\nThe pinned mission, o200k tokens\n');
	console.log(
		table(
			before ? ['part', 'before', 'after', 'change'] : ['part', 'tokens'],
			labels.map((label, i) => (before ? [label, fmt(mb?.[i]), fmt(m[i]), pct(m[i] ?? 0, mb?.[i])] : [label, fmt(m[i])]))
		)
	);
}

main().catch((err: unknown) => {
	console.error(err);
	process.exitCode = 1;
});
