/**
 * Every language's UI strings, registered when this module loads, and the whole `$lib/i18n` API. For
 * code that may answer in any language at any moment without waiting: the server (its hooks import it
 * first), the CLI and tests. Never for the browser: it would put every dictionary in every page's
 * JavaScript (the play page's budget, tests/e2e/play-performance.spec.ts, catches it).
 */
import { en } from './en';
import { ja } from './ja';
import { useMessages } from './index';

useMessages('en', en);
useMessages('ja', ja);

export * from './index';
