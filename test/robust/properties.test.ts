/**
 * The hardening properties (test/robust/properties.ts), bounded for CI; `npm run fuzz` runs the
 * same ones for longer (test/robust/fuzz.ts).
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { TARGETS } from './properties.js';

const RUNS: Record<string, number> = { parse: 1500, print: 800, validate: 1500, engine: 800 };

describe('hardening properties', () => {
  for (const [name, make] of Object.entries(TARGETS)) {
    it(`${name}: never throws, and round-trips what it accepts`, async () => {
      await fc.assert(await make(), { numRuns: RUNS[name], seed: 8 });
    }, 60_000);
  }
});
