/**
 * The `t2m` executable of the built package (dist/cli/t2m.js): runs the CLI bundle beside it
 * (dist/cli/main.cjs, built from src/cli/main.ts by scripts/bundle-cli.mjs) through V8's code
 * cache (./code-cache.ts). From the sources, `tsx src/cli/main.ts` runs the CLI directly.
 */
import { join } from 'node:path';
import { runCached } from './code-cache.js';

runCached(join(import.meta.dirname, 'main.cjs'), join(import.meta.dirname, 'main.cjs.cache'));
