import { describe, it, expect } from 'vitest';
import { mergePatch, isJsonValue, type JsonValue } from '../../../src/lib/server/records';

// RFC 7396 Appendix A, every row: [original, patch, result].
const APPENDIX_A: [string, string, string][] = [
	['{"a":"b"}', '{"a":"c"}', '{"a":"c"}'],
	['{"a":"b"}', '{"b":"c"}', '{"a":"b","b":"c"}'],
	['{"a":"b"}', '{"a":null}', '{}'],
	['{"a":"b","b":"c"}', '{"a":null}', '{"b":"c"}'],
	['{"a":["b"]}', '{"a":"c"}', '{"a":"c"}'],
	['{"a":"c"}', '{"a":["b"]}', '{"a":["b"]}'],
	['{"a":{"b":"c"}}', '{"a":{"b":"d","c":null}}', '{"a":{"b":"d"}}'],
	['{"a":[{"b":"c"}]}', '{"a":[1]}', '{"a":[1]}'],
	['["a","b"]', '["c","d"]', '["c","d"]'],
	['{"a":"b"}', '["c"]', '["c"]'],
	['{"a":"foo"}', 'null', 'null'],
	['{"a":"foo"}', '"bar"', '"bar"'],
	['{"e":null}', '{"a":1}', '{"e":null,"a":1}'],
	['[1,2]', '{"a":"b","c":null}', '{"a":"b"}'],
	['{}', '{"a":{"bb":{"ccc":null}}}', '{"a":{"bb":{}}}']
];

function json(text: string): JsonValue {
	const value: unknown = JSON.parse(text);
	if (!isJsonValue(value)) throw new Error(`not JSON: ${text}`);
	return value;
}

describe('mergePatch (RFC 7396)', () => {
	it.each(APPENDIX_A)('%s + %s = %s', (original, patch, result) => {
		expect(mergePatch(json(original), json(patch))).toEqual(json(result));
	});

	it('handles the example of section 3', () => {
		const target = json(
			'{"title":"Goodbye!","author":{"givenName":"John","familyName":"Doe"},"tags":["example","sample"],"content":"This will be unchanged"}'
		);
		const patch = json('{"title":"Hello!","phoneNumber":"+01-123-456-7890","author":{"familyName":null},"tags":["example"]}');
		expect(mergePatch(target, patch)).toEqual(
			json(
				'{"title":"Hello!","author":{"givenName":"John"},"tags":["example"],"content":"This will be unchanged","phoneNumber":"+01-123-456-7890"}'
			)
		);
	});

	it('leaves both arguments untouched', () => {
		const target = json('{"a":{"b":1,"c":[1,2]},"d":"x"}');
		const patch = json('{"a":{"b":null,"e":{"f":1}},"d":null}');
		const before = [JSON.stringify(target), JSON.stringify(patch)];
		mergePatch(target, patch);
		expect([JSON.stringify(target), JSON.stringify(patch)]).toEqual(before);
	});

	it('keeps a "__proto__" key as plain data', () => {
		const result = mergePatch(json('{}'), json('{"__proto__":{"polluted":true}}'));
		expect(Object.keys(result ?? {})).toEqual(['__proto__']);
		expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
		expect(JSON.stringify(result)).toBe('{"__proto__":{"polluted":true}}');
	});
});
