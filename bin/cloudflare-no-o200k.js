// @ts-check
// What `js-tiktoken/ranks/o200k_base` is in the Workers bundle (wrangler.jsonc `alias`): nothing. Its 2.2 MiB of
// ranks would be a third of the bundle, and building the encoder from them costs about a second of CPU in every
// isolate; there the app counts tokens with the estimator instead (src/lib/server/isolate/apps.ts). Building the
// encoder anyway fails with this message instead of counting wrongly.
const missing = () => {
	throw new Error('The o200k tokenizer is not part of the Workers bundle: the app counts tokens with the estimator there.');
};
export default new Proxy({}, { get: missing, has: missing, ownKeys: missing });
