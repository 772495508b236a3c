/**
 * The LLM, embeddings and image providers: each configured API asked for its model list, with the configured key
 * (ComfyUI, which has no key, for its system stats).
 */
import type { Config } from '../../config';
import type { DoctorOptions, Finding } from './finding';
import { probeHttp, redactUrl } from './probe';

export async function checkProviders(cfg: Config, opts: DoctorOptions): Promise<Finding[]> {
	const probes: Array<Promise<Finding>> = [];
	const judge = (area: string, target: string) => async (p: ReturnType<typeof probeHttp>) => {
		const r = await p;
		if (r.ok) return { area, status: 'ok' as const, message: `${target} reachable (${r.detail}, ${r.ms} ms)` };
		if (r.status === 401 || r.status === 403) return { area, status: 'fail' as const, message: `${target} refused the key (${r.detail})` };
		if (r.status !== undefined) return { area, status: 'warn' as const, message: `${target} answered ${r.detail} (${r.ms} ms)` };
		return { area, status: 'fail' as const, message: `${target} unreachable: ${r.detail} (after ${r.ms} ms)` };
	};
	if (cfg.llm.configured) {
		if (cfg.llm.provider === 'openai') {
			const base = (cfg.llm.openai.baseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
			probes.push(
				judge(
					'LLM provider',
					`${redactUrl(base)}/models`
				)(probeHttp(`${base}/models`, cfg.llm.openai.apiKey ? { authorization: `Bearer ${cfg.llm.openai.apiKey}` } : {}, opts.timeoutMs))
			);
		} else {
			const base = (cfg.llm.anthropic.baseUrl ?? 'https://api.anthropic.com').replace(/\/+$/, '');
			probes.push(
				judge(
					'LLM provider',
					`${redactUrl(base)}/v1/models`
				)(
					probeHttp(`${base}/v1/models`, { 'x-api-key': cfg.llm.anthropic.apiKey ?? '', 'anthropic-version': '2023-06-01' }, opts.timeoutMs)
				)
			);
		}
	} else probes.push(Promise.resolve({ area: 'LLM provider', status: 'warn', message: cfg.llm.reason }));
	if (cfg.embeddings.provider === 'openai') {
		const base = cfg.embeddings.baseUrl.replace(/\/+$/, '');
		probes.push(
			judge(
				'embeddings provider',
				`${redactUrl(base)}/models`
			)(probeHttp(`${base}/models`, cfg.embeddings.apiKey ? { authorization: `Bearer ${cfg.embeddings.apiKey}` } : {}, opts.timeoutMs))
		);
	}
	if (cfg.images.provider === 'openai') {
		const base = (cfg.images.baseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
		probes.push(
			judge(
				'image provider',
				`${redactUrl(base)}/models`
			)(probeHttp(`${base}/models`, cfg.images.apiKey ? { authorization: `Bearer ${cfg.images.apiKey}` } : {}, opts.timeoutMs))
		);
	}
	if (cfg.images.provider === 'comfyui') {
		const url = `${cfg.images.comfyui.baseUrl}/system_stats`;
		probes.push(judge('image provider', redactUrl(url))(probeHttp(url, {}, opts.timeoutMs)));
	}
	if (cfg.images.provider === 'a1111') {
		const url = `${cfg.images.baseUrl}/sdapi/v1/sd-models`;
		const { auth } = cfg.images;
		const headers: Record<string, string> = auth
			? { authorization: `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}` }
			: {};
		probes.push(judge('image provider', redactUrl(url))(probeHttp(url, headers, opts.timeoutMs)));
	}
	return Promise.all(probes);
}
