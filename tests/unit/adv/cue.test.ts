import { describe, expect, expectTypeOf, it } from 'vitest';
import * as v from 'valibot';
import { StageCueSchema, type StageCue } from '../../../src/lib/adv';
import { MAX_CHARACTER_NAME_CHARS, MAX_EXPRESSION_CHARS, MAX_PARAGRAPH, MAX_STAGE_NAME_CHARS } from '../../../src/lib/server/stage';
import { advStageTool } from '../../../src/lib/server/tools/gm/adv-stage';
import type { ToolContext } from '../../../src/lib/server/tools';

/** The stage cue is one contract across layers: the GM's tool, the stored cue and the screen (the cue's own rules: src/lib/adv/cue.test.ts). */
describe('the stage cue', () => {
	it('is one shape: the turn collects, the stage stores and the screen reads the same cue', () => {
		// The tool's own output type is checked where it pushes its cues into the turn's list.
		expectTypeOf<ToolContext['cues']>().toEqualTypeOf<StageCue[]>();
	});

	it('takes every cue the adv_stage tool accepts, at the tool’s bounds', () => {
		const at = (n: number) => 'x'.repeat(n);
		const cues = [
			{
				paragraph: MAX_PARAGRAPH,
				action: 'enter',
				character: at(MAX_CHARACTER_NAME_CHARS),
				slot: 'right',
				expression: at(MAX_EXPRESSION_CHARS)
			},
			{ paragraph: 0, action: 'background', scene: at(MAX_STAGE_NAME_CHARS) }
		];
		const accepted = advStageTool.parse({ cues });
		expect(accepted.success).toBe(true);
		expect(v.safeParse(v.object({ cues: v.array(StageCueSchema) }), accepted.output).success).toBe(true);
	});
});
