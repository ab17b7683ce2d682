/** Validation and checking never throw, whatever JSON or text they are given. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check } from '../../src/check/index.js';
import { OPS, STAGES } from '../../src/ir/schema.js';
import { readJson } from '../../src/ir/json.js';
import { validateIr } from '../../src/ir/validate.js';
import { readInput } from '../../src/pipeline.js';
import { corpusIrs } from '../ir-corpus.js';

/** JSON shaped roughly like IR: known keys with random values, so deep paths get exercised. */
const KEYS = ['ids', 'filter', 'search', 'all', 'intent', 'query', 'vector', 'limit', 'time_range', 'start', 'end', 'relative', 'amount', 'unit',
  'weight', 'weight_delta', 'remind', 'rrule', 'until', 'ttl', 'archive', 'payload', 'text', 'url', 'set', 'tags', 'facets', 'policy', 'allow',
  'deny', 'overrides', 'k', 'alpha', 'params', 'by_chunks', 'chunk_size', 'primary_id', 'confirmation', 'dry_run', 'weigth', 'timestamp'];
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 0.5, 2, '', 'P7D', '7D', '2025-01-01T00:00:00Z', '2025-13-01', 'FREQ=DAILY', 'FREQ=DAYLY', 'Delete'),
    fc.string(),
    fc.double(),
    fc.array(tie('tree'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('tree'), { maxKeys: 4 }),
  ),
}));
const irLike = fc.record(
  {
    stage: fc.oneof(fc.constantFrom(...STAGES), tree),
    op: fc.oneof(fc.constantFrom(...OPS), tree),
    target: tree,
    args: tree,
    meta: fc.oneof(fc.dictionary(fc.constantFrom('actor', 'confirmation', 'dry_run', 'timestamp', 'actr'), tree), tree),
  },
  { requiredKeys: [] },
);

/** Every path to a leaf or object in a JSON value. */
function paths(v: unknown, prefix: string[] = []): string[][] {
  const out = [prefix];
  if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...prefix, k]));
  return out;
}

/** A copy of `v` with the value at `path` replaced. */
function replaceAt(v: unknown, path: string[], value: unknown): unknown {
  if (!path.length) return value;
  const copy: any = Array.isArray(v) ? [...v] : { ...(v as object) };
  copy[path[0]] = replaceAt(copy[path[0]], path.slice(1), value);
  return copy;
}

/** Gold IRs with one value swapped for a random (often still well-typed) one. */
const sample = corpusIrs().filter((_, i) => i % 7 === 0).map((c) => c.ir);
const mutated = fc
  .tuple(fc.constantFrom(...sample), fc.nat(), fc.oneof(tree, fc.integer({ min: -5, max: 500 }), fc.double({ min: -2, max: 2, noNaN: true })))
  .map(([ir, n, value]) => {
    const ps = paths(ir).filter((p) => p.length > 0);
    return replaceAt(ir, ps[n % ps.length], value);
  });

describe('robustness', () => {
  it('check never throws on mutated gold IRs that still validate', () => {
    let validated = 0;
    fc.assert(
      fc.property(mutated, (json) => {
        const v = validateIr(json);
        if (!v.ir) return;
        validated++;
        for (const d of check([v.ir])) expect(d.code).toMatch(/^[a-z]+(-[a-z]+)*$/);
      }),
      { numRuns: 3000 },
    );
    expect(validated).toBeGreaterThan(300);
  });

  it('validateIr and check never throw, and a validated IR is checked', () => {
    let validated = 0;
    fc.assert(
      fc.property(irLike, (json) => {
        const v = validateIr(json);
        if (v.ir) {
          validated++;
          check([v.ir], { policy: 'strict' });
        }
        for (const d of v.diagnostics) expect(d.code).toMatch(/^[a-z]+(-[a-z]+)*$/);
      }),
      { numRuns: 2000 },
    );
    expect(validated).toBeGreaterThan(0);
  });

  it('the JSON reader and readInput never throw on arbitrary text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), irLike.map((x) => JSON.stringify(x))), (text) => {
        readJson(text);
        readInput(text);
      }),
      { numRuns: 500 },
    );
  });
});
