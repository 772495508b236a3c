// Module hooks for a child process (see no-local-driver.test.ts): any import of the file system or of
// the native libSQL driver from Kantera's database code or from @libsql/* fails the import loudly.
import { register } from 'node:module';

register('./forbid-local-driver-hooks.mjs', import.meta.url);
