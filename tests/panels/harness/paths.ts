/** Where the harness is built (outside the work tree, so nothing generated lands in git). */
import { tmpdir } from 'node:os';
import path from 'node:path';

export const HARNESS_DIST = path.join(tmpdir(), 'kantera-panels-harness');
