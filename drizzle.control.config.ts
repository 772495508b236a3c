import { defineConfig } from 'drizzle-kit';

export default defineConfig({
	dialect: 'sqlite',
	schema: './src/lib/server/db/control-schema.ts',
	out: './drizzle/control',
	strict: true,
	verbose: true
});
