import { defineConfig } from 'drizzle-kit';

export default defineConfig({
	dialect: 'sqlite',
	schema: './src/lib/server/db/session-schema.ts',
	out: './drizzle/session',
	strict: true,
	verbose: true
});
