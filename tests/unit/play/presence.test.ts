/** The play screen's side of presence (issue 25): typing pings only at a shared table, at most every TYPING_PING_MS. */
import { describe, expect, it } from 'vitest';
import { PlayState } from '../../../src/lib/play/play.svelte';
import { translator } from '../../../src/lib/i18n/all-languages';
import { TYPING_PING_MS } from '../../../src/lib/types/presence';
import { view } from './factories';

describe('typing pings', () => {
	it('go out only when others sit at the table, and at most once per interval however fast the player types', () => {
		let pings = 0;
		const play = new PlayState({
			sessionId: 'sess',
			view: view(),
			llmConfigured: true,
			t: translator('en'),
			pingTyping: async () => {
				pings++;
			}
		});
		play.typed(1_000);
		expect(pings).toBe(0);
		play.together = true;
		for (let at = 1_000; at < 1_000 + TYPING_PING_MS * 3; at += 100) play.typed(at);
		expect(pings).toBe(3);
	});
});
