/**
 * The `t2m` executable of the built package (dist/cli/t2m.js): runs the CLI bundle beside it
 * (dist/cli/main.cjs, built from src/cli/main.ts by scripts/bundle-cli.mjs) through V8's code
 * cache (./code-cache.ts): the one beside the bundle, or the user's own copy when the install
 * directory cannot be written. Kept because it saves over 10% of a cold start (`npm run perf -- startup`).
 * From the sources, `tsx src/cli/main.ts` runs the CLI directly.
 */
import { join } from 'node:path';
import { runCached, userCacheFile } from './code-cache.js';

const bundle = join(import.meta.dirname, 'main.cjs');
runCached(bundle, join(import.meta.dirname, 'main.cjs.cache'), userCacheFile(bundle));
