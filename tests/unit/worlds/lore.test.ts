/**
 * Lorebook entries in a played world: a setting section whose first line lists keys is found by
 * any of them, and one marked `Keys (always):` (a constant entry) is in every turn's context.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../helpers/env';
import { recall } from '../../../src/lib/server/search';
import { getWorld, seedSessionFromPreset, type WorldPreset } from '../../../src/lib/server/worlds';
import { loadTurnStart } from '../../../src/lib/server/turn/history';
import { renderHead } from '../../../src/lib/server/context-window';

let env: TestEnv | undefined;
beforeAll(async () => {
	env = await testEnv();
});
afterAll(async () => {
	await env?.cleanup();
});

function withLore(): WorldPreset {
	const world = getWorld('sword-and-sorcery', 'en');
	const lore = [
		'## Lantern Law\nKeys (always): lantern, flame\n\nNo lantern in the vale may go out; whoever lets one die owes a night of vigil.',
		'## Mother Ash\nKeys: crone, blind warden, qzxv\n\nThe oldest warden knows every flame by its sound.'
	].join('\n\n');
	const body = `${world.documents.setting.body}\n\n${lore}`;
	return { ...world, id: 'abcdefghijklmnopqrst', documents: { ...world.documents, setting: { ...world.documents.setting, body } } };
}

describe('lore sections in play', () => {
	it('keeps an always-on entry in every turn’s context, and finds a keyed one by any of its keys', async () => {
		if (!env) throw new Error('test env not ready');
		const app = env.app;
		await app.sessions.use(await env.sessionId(), async (s) => {
			await seedSessionFromPreset(s, withLore());
			const start = await loadTurnStart(s.db, app.config);
			expect(start.head.always).toContain('No lantern in the vale may go out');
			expect(start.head.always).not.toContain('oldest warden');
			expect(renderHead(start.head)).toContain('## Always in mind');
			const hits = await recall(s.db, 'qzxv', { k: 3, includeGmOnly: true });
			expect(hits[0]?.path).toBe('World Setting › Mother Ash');
		});
	});
});
