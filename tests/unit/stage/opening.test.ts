import { describe, it, expect, afterEach } from 'vitest';
import { testEnv, type TestEnv } from '../../helpers/env';
import { seedSessionFromWorld, getWorld } from '../../../src/lib/server/worlds';
import { openingStage, stageBefore } from '../../../src/lib/server/stage';
import { log } from '../../../src/lib/server/records';
import { sessionSchema } from '../../../src/lib/server/db';

let env: TestEnv | undefined;
afterEach(async () => {
	await env?.cleanup();
	env = undefined;
});

describe('the opening stage', () => {
	it('a world opens on its scene (the GM brings the characters on), and later cues play on top of it', async () => {
		env = await testEnv();
		const world = getWorld('iron-walkers', 'en');
		const id = await env.sessionId();
		await env.app.sessions.use(id, async (s) => {
			await seedSessionFromWorld(s, 'iron-walkers', 'en');
			const opening = await openingStage(s.db);
			expect(opening.background?.scene).toBe(world.opening.scene.name);
			expect(Object.values(opening.slots).every((f) => f === null)).toBe(true);
			// A GM message whose cue changes the background: before it, the opening; after, the new scene.
			const msg = await s.write(async (tx) => {
				const m = await log.append(tx, { role: 'gm', body: 'The fog lifts.' });
				await tx
					.insert(sessionSchema.stageCues)
					.values({ turnId: 't', messageId: m.id, paragraph: 0, ord: 0, cue: { paragraph: 0, action: 'background', scene: 'Hill 60' } });
				return m;
			});
			expect((await stageBefore(s.db, msg.id)).background?.scene).toBe(world.opening.scene.name);
			expect((await stageBefore(s.db, undefined)).background?.scene).toBe('Hill 60');
		});
	});

	it('a session without a world opens on an empty stage', async () => {
		env = await testEnv();
		await env.app.sessions.use(await env.sessionId(), async (s) => {
			const opening = await openingStage(s.db);
			expect(opening.background).toBeNull();
			expect(Object.values(opening.slots).every((f) => f === null)).toBe(true);
		});
	});
});
