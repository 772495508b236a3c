/**
 * Standalone mock LLM for e2e runs: point OPENAI_BASE_URL (or ANTHROPIC_BASE_URL) of the built app at it.
 *   node --import tsx tests/mock-llm/cli.ts --port 4010 --scenario echo
 * Prints one line `mock-llm listening on <url>` once it accepts connections; stops on SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import { SCENARIOS } from './scenarios';
import { startMockLlm } from './server';

const { values } = parseArgs({
	options: {
		port: { type: 'string', default: '0' },
		host: { type: 'string', default: '127.0.0.1' },
		scenario: { type: 'string', default: 'echo' },
		'api-key': { type: 'string' }
	}
});

const port = Number(values.port);
const handler = SCENARIOS[values.scenario];
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
	console.error(`--port must be a port number, got ${values.port}`);
	process.exit(2);
}
if (!handler) {
	console.error(`unknown --scenario ${values.scenario}; known: ${Object.keys(SCENARIOS).join(', ')}`);
	process.exit(2);
}

const mock = await startMockLlm({ port, host: values.host, handler, apiKey: values['api-key'] });
console.log(
	`mock-llm listening on ${mock.url} (scenario: ${values.scenario}; OpenAI base ${mock.openaiBaseUrl}, Anthropic base ${mock.anthropicBaseUrl})`
);

const stop = () => {
	void mock.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
