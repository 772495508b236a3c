/** Child process of no-local-driver.test.ts: opens a remote database through Kantera's db code and queries it. */
import { openClient } from '../../src/lib/server/db/client';
import { sqlText } from '../../src/lib/server/db/text';

const url = process.argv[2];
if (!url) throw new Error('usage: open-remote.ts <url>');
const client = await openClient(url, undefined, 1);
const rs = await client.execute('SELECT 41 + 1 AS answer');
client.close();
process.stdout.write(`answer ${sqlText(rs.rows[0]?.answer)}\n`);
